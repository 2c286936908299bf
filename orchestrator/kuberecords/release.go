package kuberecords

import (
	"context"
	"fmt"
	"os"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/statedir"
)

// Release removes a held plan once it was applied, or once the stack's
// plan moved on, so that an old approval can never apply later: its
// Secret first (it is no longer held), then its parts and its local copy.
func (s *Store) Release(ctx context.Context, client, env, stack, id string) error {
	if err := approval.ValidID(id); err != nil {
		return err
	}
	if err := history.CheckKeys(ctx, client, env, stack); err != nil {
		return fmt.Errorf("release plan %s of stack %s: %w", id, stack, err)
	}
	name := planName(client, env, stack, id)
	err := s.client.CoreV1().Secrets(s.namespace).Delete(ctx, name, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("release plan %s of stack %s: %w", id, stack, err)
	}
	if err := s.deleteParts(ctx, name, 0); err != nil {
		return fmt.Errorf("release plan %s of stack %s: %w", id, stack, err)
	}
	if s.dir == "" {
		return nil
	}
	dir, err := statedir.Join(s.dir, client, env, stack, id)
	if err != nil {
		return fmt.Errorf("release plan %s of stack %s: %w", id, stack, err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("release plan %s of stack %s: %w", id, stack, err)
	}
	return nil
}
