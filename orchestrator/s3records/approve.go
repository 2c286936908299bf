package s3records

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/history"
)

// Approve records an approval of a held plan, in the plan's record,
// written over the ETag it read: an approval never brings back a plan
// released meanwhile. The plan must be held.
func (s *Store) Approve(ctx context.Context, a approval.Approval) error {
	if err := approval.ValidID(a.PlanID); err != nil {
		return fmt.Errorf("approve: read held plan of stack %s: %w", a.Stack, err)
	}
	if err := history.CheckKeys(ctx, a.Client, a.Env, a.Stack); err != nil {
		return fmt.Errorf("approve plan %s of stack %s: %w", a.PlanID, a.Stack, err)
	}
	key := s.planDir(a.Client, a.Env, a.Stack, a.PlanID) + recordName
	for range maxWriteTries {
		rec, o, ok, err := s.readRecord(ctx, a.Client, a.Env, a.Stack, a.PlanID)
		if err != nil {
			return fmt.Errorf("approve plan %s of stack %s: %w", a.PlanID, a.Stack, err)
		}
		if !ok {
			return fmt.Errorf("approve: read held plan %s of stack %s: %w", a.PlanID, a.Stack, approval.ErrNoHeldPlan)
		}
		rec.Approval = &a
		b, err := json.Marshal(rec)
		if err != nil {
			return fmt.Errorf("approve plan %s of stack %s: %w", a.PlanID, a.Stack, err)
		}
		err = s.put(ctx, key, b, o.etag)
		if errors.Is(err, errChanged) {
			continue
		}
		if err != nil {
			return fmt.Errorf("approve plan %s of stack %s: %w", a.PlanID, a.Stack, err)
		}
		return nil
	}
	return fmt.Errorf("approve plan %s of stack %s: other writers changed it %d times in a row; try again", a.PlanID, a.Stack, maxWriteTries)
}

// Approved returns the approval of a plan id, if there is one.
func (s *Store) Approved(ctx context.Context, client, env, stack, id string) (approval.Approval, bool, error) {
	if approval.ValidID(id) != nil {
		return approval.Approval{}, false, nil
	}
	if err := history.CheckKeys(ctx, client, env, stack); err != nil {
		return approval.Approval{}, false, fmt.Errorf("read approval %s of stack %s: %w", id, stack, err)
	}
	rec, _, ok, err := s.readRecord(ctx, client, env, stack, id)
	if err != nil {
		return approval.Approval{}, false, fmt.Errorf("read approval %s of stack %s: %w", id, stack, err)
	}
	if !ok || rec.Approval == nil {
		return approval.Approval{}, false, nil
	}
	return *rec.Approval, true, nil
}
