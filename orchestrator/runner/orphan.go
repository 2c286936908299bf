package runner

import (
	"context"
	"fmt"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
)

// Orphan lets go of a stack that left the environment when its last good
// run did not have spec.destroyResourcesOnDeletion: true, as the Tofu
// Controller does when such a Terraform object is deleted. Nothing is
// planned nor destroyed: its resources, its state and its last contract
// are kept, and strata no longer manages it. An apply records so, once;
// a plan only says so.
func (r *Runner) Orphan(ctx context.Context, rr RemoveRequest) (Result, error) {
	req := Request{
		Operation: rr.Operation, Client: rr.Client, Env: rr.Env, Class: rr.Class, EnvDir: rr.EnvDir,
		Stack: &environment.Stack{Name: rr.Stack, File: "(removed from the repository)"},
	}
	st := r.newState(req, &rr)
	contract := ""
	if rr.Last.Contract != "" {
		contract = fmt.Sprintf(" and its contract %s", rr.Last.Contract)
	}
	msg := fmt.Sprintf("left the repository, and its last run in it (#%d) did not set spec.destroyResourcesOnDeletion: true: "+
		"strata no longer manages it; its resources, its state%s are kept (put the stack back with destroyResourcesOnDeletion: true, apply, then remove it to destroy them)",
		rr.Last.Number, contract)
	st.log.Warn(msg)
	st.message = msg
	if rr.Operation != history.OperationApply {
		st.run.Result = history.ResultOrphaned
		return st.result(), nil
	}
	run, err := r.cfg.History.Begin(ctx, history.Run{
		Client: rr.Client, Env: rr.Env, Stack: rr.Stack, Namespace: rr.Last.Namespace, Operation: rr.Operation,
		ToVersion: rr.Last.ToVersion, Digest: rr.Last.Digest, Contract: rr.Last.Contract,
		StartedAt: st.started.UTC(),
	})
	if err != nil {
		return r.unrecorded(st, fmt.Errorf("orphan stack %s: %w", rr.Stack, err))
	}
	run.Result, run.Note = history.ResultOrphaned, msg
	run.Duration = r.cfg.Now().Sub(st.started)
	if err := r.cfg.History.Record(context.WithoutCancel(ctx), run); err != nil {
		return r.unrecorded(st, fmt.Errorf("orphan stack %s: %w", rr.Stack, err))
	}
	st.run = run
	return st.result(), nil
}
