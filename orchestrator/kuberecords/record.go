package kuberecords

import (
	"context"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"

	"github.com/strata-iac/strata/orchestrator/history"
)

// errNoRun is a Record of a run that Begin did not create.
var errNoRun = errors.New("no such run: Begin it first")

// Record stores r over the run with its number, which Begin must have
// created. It wins over a writer that marked the run interrupted
// meanwhile: the run's own writer knows how it ended.
func (s *Store) Record(ctx context.Context, r history.Run) error {
	if err := history.CheckKeys(ctx, r.Client, r.Env, r.Stack); err != nil {
		return fmt.Errorf("record run %s #%d: %w", stackKey(r), r.Number, err)
	}
	if r.Number <= 0 {
		return fmt.Errorf("record run %s #%d: %w", stackKey(r), r.Number, errNoRun)
	}
	cms := s.client.CoreV1().ConfigMaps(s.namespace)
	name := runName(r.Client, r.Env, r.Stack, r.Number)
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur, err := cms.Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return errNoRun
		}
		if err != nil {
			return err
		}
		cm, err := s.runConfigMap(r)
		if err != nil {
			return err
		}
		cm.ResourceVersion = cur.ResourceVersion
		cm.Annotations = cur.Annotations
		_, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		return fmt.Errorf("record run %s #%d: %w", stackKey(r), r.Number, err)
	}
	return nil
}
