package records

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/history"
)

// Hold keeps a plan: its plan file, JSON and summary (plans can hold
// private values: each backend keeps them as such), then its record,
// which makes it held. A plan held again keeps its approval: the record
// is written over the version it read. A plan whose files are more than
// a store that bounds its objects keeps is not held: the error wraps
// ErrPlanTooLarge.
func (s *Records) Hold(ctx context.Context, h approval.Held, planFile string, planJSON []byte, summary string) (approval.Held, error) {
	if err := approval.ValidID(h.PlanID); err != nil {
		return h, fmt.Errorf("hold plan of stack %s: %w", h.Stack, err)
	}
	fail := func(err error) (approval.Held, error) {
		return h, fmt.Errorf("hold plan %s of stack %s: %w", h.PlanID, h.Stack, err)
	}
	if err := history.CheckKeys(ctx, h.Client, h.Env, h.Stack); err != nil {
		return fail(err)
	}
	if s.dir == "" {
		return fail(s.errNoDir())
	}
	plan, err := os.ReadFile(planFile)
	if err != nil {
		return fail(err)
	}
	files := []file{{approval.PlanFile, plan}, {approval.JSONFile, planJSON}, {approval.SummaryFile, []byte(summary)}}
	h.Dir = ""
	rec := planRecord{Held: h}
	k := planKey(h.Client, h.Env, h.Stack, h.PlanID)
	written, err := s.putFiles(ctx, k, files, &rec)
	if err != nil {
		return fail(err)
	}
	if err := s.deleteFiles(ctx, k, written); err != nil {
		return fail(err)
	}
	err = s.change(ctx, k, func(data []byte, found bool) ([]byte, error) {
		rec.Approval = nil
		if found {
			cur, err := s.decodePlan(k, data)
			if err != nil {
				return nil, err
			}
			rec.Approval = cur.Approval
		}
		return json.Marshal(rec)
	})
	if err != nil {
		return fail(err)
	}
	if h.Dir, err = s.writeOut(h, files); err != nil {
		return fail(err)
	}
	return h, nil
}
