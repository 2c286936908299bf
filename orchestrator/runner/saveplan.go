package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
)

// SavedPlan is a plan with changes that a run made, as Request.SavePlan
// is given it.
type SavedPlan struct {
	// ID is the plan's id.
	ID string
	// File is the plan file; JSON is the plan as `tofu show -json`
	// printed it.
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
	save := st.req.SavePlan
	if save == nil || !st.plan.changed || st.run.PlanID == "" {
		return nil
	}
	file, err := os.ReadFile(st.ws.planFile)
	if err == nil {
		ws := st.ws
		err = save(ctx, SavedPlan{
			ID: st.run.PlanID, File: file, JSON: st.plan.plan.JSON,
			Text: func(ctx context.Context) ([]byte, error) { return ws.tofu.ShowText(ctx, ws.planFile) },
		})
	}
	if err != nil {
		st.log.Warn(fmt.Sprintf("save plan %s of stack %s: %v", st.run.PlanID, st.req.Stack.Name, err))
	}
	return nil
}
