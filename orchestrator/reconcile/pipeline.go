package reconcile

import (
	"context"
	"log/slog"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/scheduler"
)

// Pipeline is the reconcile with its Options, as the reconcile loop
// (package daemon) drives it: applies of one environment at a time, each
// with the run log and the runner pool the loop gives it, and approvals
// of held plans.
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
