package records

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/history"
)

// Approve records an approval of a held plan, in the plan's record,
// written over the version it read: an approval never brings back a plan
// released meanwhile. The plan must be held.
func (s *Records) Approve(ctx context.Context, a approval.Approval) error {
	if err := approval.ValidID(a.PlanID); err != nil {
		return fmt.Errorf("approve: read held plan of stack %s: %w", a.Stack, err)
	}
	if err := history.CheckKeys(ctx, a.Client, a.Env, a.Stack); err != nil {
		return fmt.Errorf("approve plan %s of stack %s: %w", a.PlanID, a.Stack, err)
	}
	k := planKey(a.Client, a.Env, a.Stack, a.PlanID)
	err := s.change(ctx, k, func(data []byte, found bool) ([]byte, error) {
		if !found {
			return nil, fmt.Errorf("read held plan %s of stack %s: %w", a.PlanID, a.Stack, approval.ErrNoHeldPlan)
		}
		rec, err := s.decodePlan(k, data)
		if err != nil {
			return nil, err
		}
		rec.Approval = &a
		return json.Marshal(rec)
	})
	if errors.Is(err, approval.ErrNoHeldPlan) {
		return fmt.Errorf("approve: %w", err)
	}
	if err != nil {
		return fmt.Errorf("approve plan %s of stack %s: %w", a.PlanID, a.Stack, err)
	}
	return nil
}

// Approved returns the approval of a plan id, if there is one.
func (s *Records) Approved(ctx context.Context, client, env, stack, id string) (approval.Approval, bool, error) {
	if approval.ValidID(id) != nil {
		return approval.Approval{}, false, nil
	}
	if err := history.CheckKeys(ctx, client, env, stack); err != nil {
		return approval.Approval{}, false, fmt.Errorf("read approval %s of stack %s: %w", id, stack, err)
	}
	rec, ok, err := s.readPlan(ctx, planKey(client, env, stack, id))
	if err != nil {
		return approval.Approval{}, false, fmt.Errorf("read approval %s of stack %s: %w", id, stack, err)
	}
	if !ok || rec.Approval == nil {
		return approval.Approval{}, false, nil
	}
	return *rec.Approval, true, nil
}
