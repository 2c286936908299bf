package kuberecords

import (
	"context"
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
)

// claimsKey is the data key of the claims' JSON: key → owner.
const claimsKey = "claims.json"

// Claim records owner as the owner of every key, in one update of the
// claims ConfigMap (strata-claims). A key another owner holds is a
// conflict: Claim records nothing then and returns each such key with its
// owner. A key whose owner gone reports as gone passes to owner. Two
// writers never both win a key: each update names the version it read,
// and the one that read an older version reads again.
func (s *Store) Claim(ctx context.Context, owner string, keys []string, gone func(owner string) bool) (map[string]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("claim keys of %s: %w", owner, err)
	}
	cms := s.client.CoreV1().ConfigMaps(s.namespace)
	var conflicts map[string]string
	err := retry.OnError(retry.DefaultRetry, func(err error) bool {
		return apierrors.IsConflict(err) || apierrors.IsAlreadyExists(err)
	}, func() error {
		conflicts = map[string]string{}
		cm, err := cms.Get(ctx, claimsName, metav1.GetOptions{})
		create := apierrors.IsNotFound(err)
		if create {
			cm = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
				Name: claimsName, Namespace: s.namespace,
				Labels: map[string]string{labelManagedBy: managedBy, labelRecord: recordClaims},
			}}
		} else if err != nil {
			return err
		}
		claims := map[string]string{}
		if b := cm.Data[claimsKey]; b != "" {
			if err := json.Unmarshal([]byte(b), &claims); err != nil {
				return fmt.Errorf("decode %s: %w", claimsName, err)
			}
		}
		changed := false
		for _, k := range keys {
			prev := claims[k]
			if prev != "" && prev != owner && !gone(prev) {
				conflicts[k] = prev
				continue
			}
			changed = changed || prev != owner
			claims[k] = owner
		}
		if len(conflicts) > 0 || !changed {
			return nil
		}
		b, err := json.Marshal(claims)
		if err != nil {
			return err
		}
		cm.Data = map[string]string{claimsKey: string(b)}
		if create {
			_, err = cms.Create(ctx, cm, metav1.CreateOptions{})
		} else {
			_, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("claim keys of %s: %w", owner, err)
	}
	if len(conflicts) > 0 {
		return conflicts, nil
	}
	return nil, nil
}
