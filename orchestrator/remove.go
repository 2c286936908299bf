package orchestrator

import (
	"context"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// removedStacks finds the stacks that left the environment but whose
// resources still exist: stacks with a successful apply in the history,
// no longer in the repository, whose last successful apply was not their
// removal, and that strata has not let go of (orphaned).
func removedStacks(ctx context.Context, env *environment.Environment, h History) ([]history.Run, error) {
	names, err := h.Stacks(ctx, env.Client, env.Name)
	if err != nil {
		return nil, err
	}
	var out []history.Run
	for _, name := range names {
		if env.Stack(name) != nil {
			continue
		}
		last, ok, err := h.LastGood(ctx, env.Client, env.Name, name)
		if err != nil {
			return nil, err
		}
		if !ok || last.Cause == runner.CauseRemoved {
			continue
		}
		// A stack strata let go of stays let go of.
		newest, _, err := h.Last(ctx, env.Client, env.Name, name)
		if err != nil {
			return nil, err
		}
		if newest.Result != history.ResultOrphaned {
			out = append(out, last)
		}
	}
	return out, nil
}

// remove plans, and when policy or a person allows it applies, the
// destruction of every stack that left the environment whose last good
// run had spec.destroyResourcesOnDeletion: true; the others are orphaned:
// strata lets go of them and keeps their resources, state and contract.
// They run after the stacks that remain, one at a time: their place in
// the graph left with them.
func remove(ctx context.Context, env *environment.Environment, envDir string, op history.Operation, cfg runner.Config, gone []history.Run) map[string]runner.Result {
	out := make(map[string]runner.Result, len(gone))
	r := runner.New(cfg)
	for _, last := range gone {
		if ctx.Err() != nil {
			out[last.Stack] = notRun(last.Stack, ctx.Err())
			continue
		}
		rr := runner.RemoveRequest{
			Operation: op, Client: env.Client, Env: env.Name, Class: env.Class, EnvDir: envDir,
			Stack: last.Stack, Last: last,
		}
		// The runner logs and reports a removal that fails; its error
		// has nothing to add.
		if last.DestroyResourcesOnDeletion {
			out[last.Stack], _ = r.Remove(ctx, rr)
		} else {
			out[last.Stack], _ = r.Orphan(ctx, rr)
		}
	}
	return out
}
