package reconcile

import (
	"context"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// only runs the stacks select selects and reports every other unchanged,
// with no run recorded and no tofu process started (Options.Only).
type only struct {
	runner.StackRunner
	selects func(stack string) bool
}

func (o only) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	if o.selects(req.Stack.Name) {
		return o.StackRunner.Run(ctx, req)
	}
	return runner.Result{
		Stack:   req.Stack.Name,
		Run:     history.Run{Stack: req.Stack.Name, Result: history.ResultUnchanged},
		Message: report.NotSelected,
	}, nil
}
