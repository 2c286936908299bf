package runner

import (
	"context"
	"fmt"
	"os"
)

// savePlan hands a plan with changes to Request.SavePlan, once the policy
// judged it and before it is applied or held. The plan is strata's to
// apply whatever becomes of the copy: a failure is a warning.
func (r *Runner) savePlan(ctx context.Context, st *runState) error {
	save := st.req.SavePlan
	if save == nil || !st.plan.changed || st.run.PlanID == "" {
		return nil
	}
	plan, err := os.ReadFile(st.ws.planFile)
	if err == nil {
		err = save(ctx, st.run.PlanID, plan)
	}
	if err != nil {
		st.log.Warn(fmt.Sprintf("save plan %s of stack %s: %v", st.run.PlanID, st.req.Stack.Name, err))
	}
	return nil
}
