package kuberecords

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/util/retry"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/history"
)

// Data keys of a held plan's Secret.
const (
	heldKey     = "held.json"
	approvalKey = "approval.json"
	payloadKey  = "payload.json"
	partKey     = "part"
)

// payloadRef says where a held plan's files are: how many parts, and the
// digest of the whole.
type payloadRef struct {
	Parts  int    `json:"parts"`
	SHA256 string `json:"sha256"`
}

// Hold keeps a plan: its plan file, JSON and summary (plans can hold
// private values: Secrets, never ConfigMaps), gzipped and split over
// Secrets when they are large, then the plan's own Secret, which makes it
// held. A plan held again keeps its approval. A plan whose files are more
// than MaxPlanBytes gzipped is not held: the error wraps ErrPlanTooLarge.
func (s *Store) Hold(ctx context.Context, h approval.Held, planFile string, planJSON []byte, summary string) (approval.Held, error) {
	if err := approval.ValidID(h.PlanID); err != nil {
		return h, fmt.Errorf("hold plan of stack %s: %w", h.Stack, err)
	}
	fail := func(err error) (approval.Held, error) {
		return h, fmt.Errorf("hold plan %s of stack %s: %w", h.PlanID, h.Stack, err)
	}
	if err := history.CheckKeys(ctx, h.Client, h.Env, h.Stack); err != nil {
		return fail(err)
	}
	plan, err := os.ReadFile(planFile)
	if err != nil {
		return fail(err)
	}
	files := []file{{approval.PlanFile, plan}, {approval.JSONFile, planJSON}, {approval.SummaryFile, []byte(summary)}}
	parts, sum, err := pack(files)
	if err != nil {
		return fail(err)
	}
	name := planName(h.Client, h.Env, h.Stack, h.PlanID)
	for i, p := range parts {
		sec := s.secret(partName(name, i), recordPart, h, map[string][]byte{partKey: p})
		sec.Labels[labelPart] = hash(name)
		if err := s.put(ctx, sec, nil); err != nil {
			return fail(err)
		}
	}
	if err := s.deleteParts(ctx, name, len(parts)); err != nil {
		return fail(err)
	}
	heldJSON, err := json.Marshal(h)
	if err != nil {
		return fail(err)
	}
	ref, err := json.Marshal(payloadRef{Parts: len(parts), SHA256: sum})
	if err != nil {
		return fail(err)
	}
	sec := s.secret(name, recordPlan, h, map[string][]byte{heldKey: heldJSON, payloadKey: ref})
	keepApproval := func(cur *corev1.Secret) {
		if a, ok := cur.Data[approvalKey]; ok {
			sec.Data[approvalKey] = a
		}
	}
	if err := s.put(ctx, sec, keepApproval); err != nil {
		return fail(err)
	}
	if h.Dir, err = s.writeOut(h, files); err != nil {
		return fail(err)
	}
	return h, nil
}

// secret is a held plan's Secret, or one of its parts.
func (s *Store) secret(name, record string, h approval.Held, data map[string][]byte) *corev1.Secret {
	l := labels(record, h.Client, h.Env, h.Stack)
	if len(validation.IsValidLabelValue(h.PlanID)) == 0 {
		l[labelPlan] = h.PlanID
	}
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: s.namespace, Labels: l,
			Annotations: annotations(h.Client, h.Env, h.Stack),
		},
		Type: corev1.SecretTypeOpaque,
		Data: data,
	}
}

// put creates sec, or updates it over the version it reads; merge, when
// set, carries what the current Secret keeps over to sec.
func (s *Store) put(ctx context.Context, sec *corev1.Secret, merge func(cur *corev1.Secret)) error {
	secrets := s.client.CoreV1().Secrets(s.namespace)
	return retry.OnError(retry.DefaultRetry, func(err error) bool {
		return apierrors.IsConflict(err) || apierrors.IsAlreadyExists(err)
	}, func() error {
		cur, err := secrets.Get(ctx, sec.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			sec.ResourceVersion = ""
			_, err = secrets.Create(ctx, sec, metav1.CreateOptions{})
			return err
		}
		if err != nil {
			return err
		}
		if merge != nil {
			merge(cur)
		}
		sec.ResourceVersion = cur.ResourceVersion
		_, err = secrets.Update(ctx, sec, metav1.UpdateOptions{})
		return err
	})
}

// deleteParts deletes the plan's parts from number from on: those an
// earlier, larger hold of the plan left, or all of them.
func (s *Store) deleteParts(ctx context.Context, plan string, from int) error {
	secrets := s.client.CoreV1().Secrets(s.namespace)
	list, err := secrets.List(ctx, metav1.ListOptions{LabelSelector: labelPart + "=" + hash(plan)})
	if err != nil {
		return err
	}
	for _, sec := range list.Items {
		i, err := strconv.Atoi(strings.TrimPrefix(sec.Name, partPrefix(plan)))
		if err != nil || i < from {
			continue
		}
		if err := secrets.Delete(ctx, sec.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("delete %s: %w", sec.Name, err)
		}
	}
	return nil
}
