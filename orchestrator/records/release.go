package records

import (
	"context"
	"fmt"
	"os"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/statedir"
)

// Release removes a held plan once it was applied, or once the stack's
// plan moved on, so that an old approval can never apply later: its
// record first (it is no longer held, and its approval goes with it),
// then its files and its local copy.
func (s *Records) Release(ctx context.Context, client, env, stack, id string) error {
	if err := approval.ValidID(id); err != nil {
		return err
	}
	if err := history.CheckKeys(ctx, client, env, stack); err != nil {
		return fmt.Errorf("release plan %s of stack %s: %w", id, stack, err)
	}
	k := planKey(client, env, stack, id)
	if err := s.objects.Delete(ctx, k); err != nil {
		return fmt.Errorf("release plan %s of stack %s: %w", id, stack, err)
	}
	if err := s.deleteFiles(ctx, k, nil); err != nil {
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
