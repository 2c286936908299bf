package reconcile

import (
	"context"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// NotSelected is the message of a stack that Options.Only left out.
const NotSelected = "not selected: unchanged by the change under review, so not planned"

// only runs the stacks select selects and reports every other unchanged,
// with no run recorded and no tofu process started (Options.Only).
type only struct {
	StackRunner
	selects func(stack string) bool
}

func (o only) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	if o.selects(req.Stack.Name) {
		return o.StackRunner.Run(ctx, req)
	}
	return runner.Result{
		Stack:   req.Stack.Name,
		Run:     history.Run{Stack: req.Stack.Name, Result: history.ResultUnchanged},
		Message: NotSelected,
	}, nil
}
