package reconcile

import (
	"context"
	"log/slog"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/graph"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/scheduler"
)

// Pipeline is the reconcile with its Options, as its drivers call it:
// the reconcile loop (package daemon) applies one environment at a time,
// each with the run log and the runner pool the loop gives it; strata
// controller (package controller) applies the environment it built from
// a namespace, with its hooks; both approve held plans.
type Pipeline struct {
	Options Options
}

// Reconcile applies the environment at dir with the options, its run log
// to log and its runners from runners (the options' own when nil).
func (p Pipeline) Reconcile(ctx context.Context, dir string, log *slog.Logger, runners *scheduler.Pool) (*report.Report, error) {
	opts := p.Options
	if log != nil {
		opts.Logger = log
	}
	if runners != nil {
		opts.Runners = runners
	}
	return Reconcile(ctx, dir, history.OperationApply, opts)
}

// Approve is Approve with the options.
func (p Pipeline) Approve(ctx context.Context, dir string, req approval.Request) (approval.Approval, error) {
	return Approve(ctx, dir, req, p.Options)
}

// RunLog is the options' Logger.
func (p Pipeline) RunLog() *slog.Logger { return p.Options.Logger }

// Runners are the options' runner pool and limit.
func (p Pipeline) Runners() (*scheduler.Pool, int) { return p.Options.Runners, p.Options.MaxRunners }

// Records are the options' state directory and records.
func (p Pipeline) Records() (string, envstores.Records) { return p.Options.StateDir, p.Options.Records }

// Apply applies env, built from a namespace, with its graph g and the
// options, changed by hooks; dir names it in messages.
func (p Pipeline) Apply(ctx context.Context, env *environment.Environment, g *graph.Graph, dir string, hooks runner.Hooks) (*report.Report, error) {
	opts := p.Options
	opts.HashKey, opts.Runs, opts.Removable, opts.Deleted = hooks.HashKey, hooks.Runs, hooks.Removable, hooks.Deleted
	return Run(ctx, Request{Dir: dir, Env: env, Graph: g, Operation: history.OperationApply, Options: opts})
}

// ApproveEnvironment is ApproveEnvironment with the options.
func (p Pipeline) ApproveEnvironment(ctx context.Context, env *environment.Environment, dir string, req approval.Request) (approval.Approval, error) {
	return ApproveEnvironment(ctx, env, dir, req, p.Options)
}

// Settings are env's settings with the options' overrides.
func (p Pipeline) Settings(env *environment.Environment) (environment.Settings, error) {
	return p.Options.Settings(env)
}

// StateDir is the options' state directory.
func (p Pipeline) StateDir() string { return p.Options.StateDir }
