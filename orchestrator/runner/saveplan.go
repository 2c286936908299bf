package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/strata-iac/strata/policy"
)

// SavedPlan is a plan that a run made, as Request.SavePlan is given it.
type SavedPlan struct {
	// ID is the plan's id (policy.NoChangesPlanID for a plan without
	// changes).
	ID string
	// File is the plan file; JSON is the plan as `tofu show -json`
	// printed it, nil for a plan without changes, which strata does not
	// show (no second tofu process on a drift check that found none).
	File []byte
	JSON json.RawMessage
	// Text renders the plan as `tofu show` prints it for people: one more
	// tofu process, run only when called.
	Text func(ctx context.Context) ([]byte, error)
}

// savePlan hands a plan with changes to Request.SavePlan, once the policy
// judged it and before it is applied or held. The plan is strata's to
// apply whatever becomes of the copy: a failure is a warning.
func (r *Runner) savePlan(ctx context.Context, st *runState) error {
	if !st.plan.changed || st.run.PlanID == "" {
		return nil
	}
	r.handPlan(ctx, st, st.run.PlanID, st.plan.plan.JSON)
	return nil
}

// saveNoChanges hands a plan without changes to Request.SavePlan, under
// policy.NoChangesPlanID, as the Tofu Controller saves every plan.
func (r *Runner) saveNoChanges(ctx context.Context, st *runState) error {
	if st.plan.changed || st.req.SavePlan == nil {
		return nil
	}
	key, err := r.hashKey()
	var id string
	if err == nil {
		id, err = policy.NoChangesPlanID(key)
	}
	if err != nil {
		st.log.Warn(fmt.Sprintf("save the plan of stack %s: %v", st.req.Stack.Name, err))
		return nil
	}
	r.handPlan(ctx, st, id, nil)
	return nil
}

// handPlan gives the workspace's plan file to Request.SavePlan; a failure
// is a warning.
func (r *Runner) handPlan(ctx context.Context, st *runState, id string, planJSON json.RawMessage) {
	save := st.req.SavePlan
	if save == nil {
		return
	}
	file, err := os.ReadFile(st.ws.planFile)
	if err == nil {
		ws := st.ws
		err = save(ctx, SavedPlan{
			ID: id, File: file, JSON: planJSON,
			Text: func(ctx context.Context) ([]byte, error) { return ws.tofu.ShowText(ctx, ws.planFile) },
		})
	}
	if err != nil {
		st.log.Warn(fmt.Sprintf("save plan %s of stack %s: %v", id, st.req.Stack.Name, err))
	}
}
