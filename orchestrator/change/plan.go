package change

import (
	"context"
	"path/filepath"

	"github.com/strata-iac/strata/orchestrator/report"
)

// EnvPlan is one environment of a pull request: what changes, and the
// report of the plan of those stacks.
type EnvPlan struct {
	Env
	// Report is the plan's report: nil when nothing was planned (nothing
	// changes, the environment was removed or does not load).
	Report *report.Report `json:"plan,omitempty"`
	// Error is why the plan could not run, when it could not.
	Error string `json:"error,omitempty"`
}

// Planner plans the environment at dir (a plan, never an apply): only
// the stacks only selects run, and of the stacks that left the
// environment only those removable allows get a destroy plan. strata's
// is reconcile.Reconcile, with the command's options, against the state,
// contracts and history they name, with policy and the contract-break
// checks of every plan.
type Planner func(ctx context.Context, dir string, only, removable func(stack string) bool) (*report.Report, error)

// Plan plans, in every environment of d that changes, only the stacks
// that d lists (and so the consumers of the contracts they produce),
// with plan. Every other stack is reported unchanged, and no tofu
// process starts for it; an environment where nothing changes is not
// planned at all. A stack that left the environment gets a destroy plan
// when its history knows it and no other stack gone before does. An
// environment that cannot be planned keeps its error and the others go
// on.
func Plan(ctx context.Context, root string, d *Report, plan Planner) []EnvPlan {
	out := make([]EnvPlan, 0, len(d.Environments))
	for _, e := range d.Environments {
		p := EnvPlan{Env: e}
		if len(e.Stacks) == 0 || e.Status == EnvRemoved || e.Status == EnvInvalid {
			out = append(out, p)
			continue
		}
		selected, removed := map[string]bool{}, map[string]bool{}
		for _, s := range e.Stacks {
			if s.Cause == CauseRemoved {
				removed[s.Stack] = true
			} else {
				selected[s.Stack] = true
			}
		}
		only := func(stack string) bool { return selected[stack] }
		removable := func(stack string) bool { return removed[stack] }
		rep, err := plan(ctx, filepath.Join(root, filepath.FromSlash(e.Dir)), only, removable)
		if err != nil {
			p.Error = err.Error()
		}
		p.Report = rep
		out = append(out, p)
		if ctx.Err() != nil {
			break
		}
	}
	return out
}
