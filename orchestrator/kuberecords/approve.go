package kuberecords

import (
	"context"
	"encoding/json"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/history"
)

// Approve records an approval of a held plan, in the plan's Secret. The
// plan must be held.
func (s *Store) Approve(ctx context.Context, a approval.Approval) error {
	if err := approval.ValidID(a.PlanID); err != nil {
		return fmt.Errorf("approve: read held plan of stack %s: %w", a.Stack, err)
	}
	if err := history.CheckKeys(ctx, a.Client, a.Env, a.Stack); err != nil {
		return fmt.Errorf("approve plan %s of stack %s: %w", a.PlanID, a.Stack, err)
	}
	b, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("approve plan %s of stack %s: %w", a.PlanID, a.Stack, err)
	}
	secrets := s.client.CoreV1().Secrets(s.namespace)
	name := planName(a.Client, a.Env, a.Stack, a.PlanID)
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		sec, err := secrets.Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return fmt.Errorf("read held plan %s of stack %s: %w", a.PlanID, a.Stack, approval.ErrNoHeldPlan)
		}
		if err != nil {
			return err
		}
		sec.Data[approvalKey] = b
		_, err = secrets.Update(ctx, sec, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		return fmt.Errorf("approve: %w", err)
	}
	return nil
}

// Approved returns the approval of a plan id, if there is one.
func (s *Store) Approved(ctx context.Context, client, env, stack, id string) (approval.Approval, bool, error) {
	var a approval.Approval
	if approval.ValidID(id) != nil {
		return a, false, nil
	}
	if err := history.CheckKeys(ctx, client, env, stack); err != nil {
		return a, false, fmt.Errorf("read approval %s of stack %s: %w", id, stack, err)
	}
	sec, err := s.client.CoreV1().Secrets(s.namespace).Get(ctx, planName(client, env, stack, id), metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return a, false, nil
	}
	if err != nil {
		return a, false, fmt.Errorf("read approval %s of stack %s: %w", id, stack, err)
	}
	b, ok := sec.Data[approvalKey]
	if !ok {
		return a, false, nil
	}
	if err := json.Unmarshal(b, &a); err != nil {
		return a, false, fmt.Errorf("read approval %s of stack %s: %w", id, stack, err)
	}
	return a, true, nil
}
