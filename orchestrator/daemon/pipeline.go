package daemon

import (
	"context"
	"log/slog"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/scheduler"
)

// Pipeline is the reconcile the daemon drives, one environment at a time:
// package reconcile's (reconcile.Pipeline, with the options strata
// reconcile --interval gives it), handed in from above so that the daemon
// never imports the pipeline.
type Pipeline interface {
	// Reconcile applies the environment at dir. Its run log goes to log,
	// and its stacks take their runners from runners, which every
	// environment of a pass shares.
	Reconcile(ctx context.Context, dir string, log *slog.Logger, runners *scheduler.Pool) (*report.Report, error)
	// Approve records a person's approval of one held plan of the
	// environment at dir, as strata approve does. A bad request wraps
	// approval.ErrBadApproval, an unknown stack approval.ErrUnknownStack,
	// a plan id that is not held approval.ErrNoHeldPlan, and an invalid
	// environment its diag.Problems.
	Approve(ctx context.Context, dir string, req approval.Request) (approval.Approval, error)
	// RunLog is where the run logs go; nil for the daemon's Logger.
	RunLog() *slog.Logger
	// Runners is the runner pool the options give; when nil, the daemon
	// makes one of max runners (environment.DefaultRunners() when 0) for
	// the whole loop.
	Runners() (pool *scheduler.Pool, max int)
	// Records say where the environments' records are kept, for the web
	// view.
	Records() (stateDir string, records envstores.Records)
}
