package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
)

// RemoveRequest is a stack that left the environment: its Terraform object
// is no longer in the repository, but its resources still exist.
type RemoveRequest struct {
	Operation          history.Operation
	Client, Env, Class string
	EnvDir             string
	Stack              string
	// Last is the stack's last successful apply.
	Last history.Run
}

// Remove plans the destruction of a stack that left the environment, in
// the workspace its last run left (its code is gone from the repository).
// The destroy plan goes through policy like any other, so by default it is
// held for a person; once applied, the stack's contract says
// "installed": false. It runs the same steps as Run where it can.
func (r *Runner) Remove(ctx context.Context, rr RemoveRequest) (Result, error) {
	req := Request{
		Operation: rr.Operation, Client: rr.Client, Env: rr.Env, Class: rr.Class, EnvDir: rr.EnvDir,
		// A stack that left has no spec.approvePlan any more: policy alone
		// decides.
		Stack: &environment.Stack{Name: rr.Stack, Namespace: rr.Last.Namespace, ApprovePlan: "auto", File: "(removed from the repository)"},
	}
	st := r.newState(req, &rr)
	st.prev, st.hasPrev = rr.Last, true
	st.run.Cause, st.run.FromVersion, st.run.Digest, st.run.Contract = CauseRemoved, rr.Last.ToVersion, rr.Last.Digest, rr.Last.Contract
	st.applied = "the stack is removed"
	dir, err := r.workspaceDir(req)
	if err != nil {
		return r.unrecorded(st, fmt.Errorf("remove stack %s: %w", rr.Stack, err))
	}
	if _, err := os.Stat(filepath.Join(dir, varFileName)); err != nil {
		return r.unrecorded(st, fmt.Errorf("remove stack %s: it left the environment, but its workspace %s is gone, so strata cannot plan its destruction; "+
			"its resources and state are untouched: destroy them with tofu from its last code, or put the stack back", rr.Stack, dir))
	}
	if err := r.begin(ctx, st); err != nil {
		return r.unrecorded(st, err)
	}
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	return r.finish(ctx, st, do(ctx, st, []step{
		r.reopenWorkspace,
		r.init,
		r.removalCause,
		r.plan,
		r.nothingToDestroy,
		r.review,
		r.savePlan,
		r.planned,
		r.gate,
		r.apply,
		r.unpublish,
	}))
}

// reopenWorkspace opens the workspace the stack's last run left, to plan
// the destruction of everything in it.
func (r *Runner) reopenWorkspace(_ context.Context, st *runState) error {
	dir, err := r.workspaceDir(st.req)
	if err != nil {
		return err
	}
	cloud := leftCloud(dir)
	tw, err := r.openTofu(dir, tofuSetup{cliConfig: leftCLIConfig(dir), cloud: cloud})
	if err != nil {
		return err
	}
	st.ws = &workspace{dir: dir, planFile: filepath.Join(dir, planFileName), varFile: filepath.Join(dir, varFileName), tofu: tw, destroy: true, cloud: cloud}
	if b, err := os.ReadFile(filepath.Join(dir, ".terraform", initMarkerName)); err == nil {
		st.ws.initKey = string(b) // initialised by the last run, for the same code
	}
	return nil
}

// removalCause says why the stack changes: it left the environment.
func (r *Runner) removalCause(_ context.Context, st *runState) error {
	st.cause = cause{CauseRemoved, fmt.Sprintf("removing the infrastructure: stack %s left the environment (last applied at version %s)",
		st.removal.Stack, orNone(st.removal.Last.ToVersion))}
	st.log.Info(st.cause.line)
	st.why = st.cause.line
	return nil
}

// nothingToDestroy ends a removal whose plan destroys nothing: a plan
// operation is done; an apply has removed the stack, and goes on to say so
// in its contract.
func (r *Runner) nothingToDestroy(_ context.Context, st *runState) error {
	if st.plan.changed {
		return nil
	}
	if st.req.Operation == history.OperationPlan {
		st.run.Result = history.ResultNoChanges
		st.message = "nothing left to destroy"
		st.done = true
		return nil
	}
	st.run.Result = history.ResultApplied
	st.message = "nothing left to destroy; the stack is removed"
	return nil
}

// unpublish replaces a removed stack's contract with a document that says
// it is no longer installed, so that consumers and External Secrets see it
// go rather than read stale values.
func (r *Runner) unpublish(ctx context.Context, st *runState) error {
	log, rr := st.log, st.removal
	key := rr.Last.Contract
	if key == "" || st.req.Operation == history.OperationPlan {
		return nil
	}
	doc := contracts.Document{
		Installed: false, Version: rr.Last.ToVersion, Stack: rr.Stack,
		UpdatedAt: r.cfg.Now().UTC().Truncate(time.Second),
		Public:    map[string]any{}, Private: map[string]any{},
	}
	if err := r.cfg.Contracts.Put(ctx, key, doc); err != nil {
		return fmt.Errorf("unpublish contract %s of removed stack %s: %w", key, rr.Stack, err)
	}
	log.Info("contract " + key + " now says the stack is not installed")
	return nil
}
