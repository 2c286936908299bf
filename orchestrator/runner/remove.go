package runner

import (
	"context"
	"fmt"
	"log/slog"
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
// "installed": false.
func (r *Runner) Remove(ctx context.Context, rr RemoveRequest) (Result, error) {
	log := r.cfg.Logger.With("stack", rr.Stack)
	started := r.cfg.Now()
	req := Request{
		Operation: rr.Operation, Client: rr.Client, Env: rr.Env, Class: rr.Class, EnvDir: rr.EnvDir,
		// A stack that left has no spec.approvePlan any more: policy alone
		// decides.
		Stack: &environment.Stack{Name: rr.Stack, ApprovePlan: "auto", File: "(removed from the repository)"},
	}
	dir := r.workspaceDir(req)
	if _, err := os.Stat(filepath.Join(dir, varFileName)); err != nil {
		err = fmt.Errorf("remove stack %s: it left the environment, but its workspace %s is gone, so strata cannot plan its destruction; "+
			"its resources and state are untouched: destroy them with tofu from its last code, or put the stack back", rr.Stack, dir)
		log.Error(err.Error())
		return Result{Stack: rr.Stack, Message: err.Error()}, err
	}
	run, err := r.cfg.History.Begin(ctx, history.Run{
		Client: rr.Client, Env: rr.Env, Stack: rr.Stack,
		Operation:   rr.Operation,
		Cause:       CauseRemoved,
		FromVersion: rr.Last.ToVersion,
		Digest:      rr.Last.Digest,
		Contract:    rr.Last.Contract,
		StartedAt:   started.UTC(),
	})
	if err != nil {
		return Result{Stack: rr.Stack}, fmt.Errorf("remove stack %s: %w", rr.Stack, err)
	}
	log.Info(fmt.Sprintf("run #%d started", run.Number), "operation", string(rr.Operation), "mode", "auto", "version", "removed")
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	out, err := r.removeSteps(ctx, log, req, rr, dir, &run)
	return r.finish(ctx, log, run, out, err, started)
}

func (r *Runner) removeSteps(ctx context.Context, log *slog.Logger, req Request, rr RemoveRequest, dir string, run *history.Run) (outcome, error) {
	var out outcome
	tw, err := r.openTofu(dir)
	if err != nil {
		return out, err
	}
	ws := &workspace{dir: dir, planFile: filepath.Join(dir, planFileName), varFile: filepath.Join(dir, varFileName), tofu: tw, destroy: true}
	if b, err := os.ReadFile(filepath.Join(dir, ".terraform", initMarkerName)); err == nil {
		ws.initKey = string(b) // initialised by the last run, for the same code
	}
	if err := r.init(ctx, log, ws); err != nil {
		return out, err
	}
	c := cause{CauseRemoved, fmt.Sprintf("removing the infrastructure: stack %s left the environment (last applied at version %s)", rr.Stack, orNone(rr.Last.ToVersion))}
	log.Info(c.line)
	out.why = c.line
	plan, err := r.plan(ctx, log, ws)
	if err != nil {
		return out, err
	}
	out.changes = plan.lines
	run.Summary = plan.summary
	if !plan.changed {
		if req.Operation == history.OperationPlan {
			run.Result = history.ResultNoChanges
			out.message = "nothing left to destroy"
			return out, nil
		}
		run.Result = history.ResultApplied
		out.message = "nothing left to destroy; the stack is removed"
		return out, r.unpublish(ctx, log, rr)
	}
	applied, err := r.decideAndApply(ctx, log, req, ws, plan, c, rr.Last.ToVersion, run, &out)
	if err != nil || !applied {
		return out, err
	}
	out.message = "the stack is removed"
	return out, r.unpublish(ctx, log, rr)
}

// unpublish replaces a removed stack's contract with a document that says
// it is no longer installed, so that consumers and External Secrets see it
// go rather than read stale values.
func (r *Runner) unpublish(ctx context.Context, log *slog.Logger, rr RemoveRequest) error {
	key := rr.Last.Contract
	if key == "" {
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
