package runner

import (
	"context"
	"fmt"

	"github.com/strata-iac/strata/orchestrator/environment"
)

// RemoveDeleted destroys the resources of a stack whose Terraform object
// was deleted with spec.destroyResourcesOnDeletion: req.Removal is its
// last successful apply, req.Stack and req.Artifact its code and
// variables as the object still says them. Unlike Remove, which reopens
// the workspace the stack's last run left on this machine, it lays the
// code out again, so it runs anywhere the code can be fetched: in a
// runner pod, with the state backend every apply of the stack used. The
// destroy plan goes through policy like any other (held by default, its
// approval recorded as any plan's); once applied, the stack's contract
// says "installed": false, and the run is recorded with cause removed, as
// Remove records it.
func (r *Runner) RemoveDeleted(ctx context.Context, req Request) (Result, error) {
	last := *req.Removal
	stack := *req.Stack
	// The object is deleted: its spec.approvePlan no longer decides, the
	// policy does (and a person, through the approvals), as for a stack
	// removed from a repository. What it targets is destroyed, as the
	// Tofu Controller plans the destroy with its spec.targets (all of its
	// state without them); nothing is plan-only.
	stack.ApprovePlan = "auto"
	stack.Run = environment.Run{
		Workspace: stack.Run.Workspace, Parallelism: stack.Run.Parallelism, Files: stack.Run.Files, Mounts: stack.Run.Mounts,
		CLIConfig:      stack.Run.CLIConfig,
		BackendConfigs: stack.Run.BackendConfigs, Env: stack.Run.Env,
		Targets: stack.Run.Targets, VarFiles: stack.Run.VarFiles,
		Destroy: true,
	}
	req.Stack, req.Removal = &stack, nil
	rr := RemoveRequest{
		Operation: req.Operation, Client: req.Client, Env: req.Env, Class: req.Class, EnvDir: req.EnvDir,
		Stack: stack.Name, Last: last,
	}
	st := r.newState(req, &rr)
	st.prev, st.hasPrev = last, true
	st.run.Cause, st.run.FromVersion, st.run.Digest, st.run.Contract = CauseRemoved, last.ToVersion, req.Artifact.Digest, last.Contract
	st.applied = "the stack is removed"
	if err := do(ctx, st, []step{r.gatherInputs}); err != nil {
		return r.notBegun(ctx, st, fmt.Errorf("remove stack %s: %w", stack.Name, err))
	}
	if err := r.begin(ctx, st); err != nil {
		return r.unrecorded(st, err)
	}
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	return r.finish(ctx, st, do(ctx, st, []step{
		r.prepare,
		r.init,
		r.selectWorkspace,
		r.checkLock,
		r.deletedCause,
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

// deletedCause says why the stack changes: its object was deleted.
func (r *Runner) deletedCause(_ context.Context, st *runState) error {
	st.cause = cause{CauseRemoved, fmt.Sprintf("removing the infrastructure: Terraform/%s was deleted with spec.destroyResourcesOnDeletion (last applied at version %s)",
		st.removal.Stack, orNone(st.removal.Last.ToVersion))}
	st.log.Info(st.cause.line)
	st.why = st.cause.line
	return nil
}
