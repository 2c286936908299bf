package runner

import (
	"context"
	"fmt"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
)

// detectOnly ends the run of a stack whose spec.approvePlan is disable
// once it is planned, as the Tofu Controller's drift detection only mode
// does: a plan without changes is no-changes, and one with changes is
// planned and reported, never held nor applied. Nothing is published.
func (r *Runner) detectOnly(_ context.Context, st *runState) error {
	if st.req.Stack.ApprovePlan != environment.ApprovePlanDisable {
		return nil
	}
	st.done = true
	if !st.plan.changed {
		st.message = "no changes, the infrastructure is up to date (spec.approvePlan is disable: drift detection only)"
		return nil
	}
	st.run.Result = history.ResultPlanned
	st.message = fmt.Sprintf("plan: %s; not applied, as spec.approvePlan is disable (drift detection only)", st.plan.summaryLine())
	st.log.Warn(st.message)
	return nil
}
