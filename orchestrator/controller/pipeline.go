package controller

import (
	"context"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/graph"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// Pipeline is the reconcile the controller drives, one namespace's
// environment at a time: package reconcile's (reconcile.Pipeline, with
// the options strata controller gives it: tofu, state directory, policy,
// runner limit, logger), handed in from above so that the controller
// never imports the pipeline.
type Pipeline interface {
	// Apply applies env, built from a namespace, with its graph g, as
	// strata apply does; dir names it in messages, and hooks say how its
	// stacks run (runner Jobs) and which of those that left are
	// destroyed.
	Apply(ctx context.Context, env *environment.Environment, g *graph.Graph, dir string, hooks runner.Hooks) (*report.Report, error)
	// ApproveEnvironment records an approval of one held plan of env, as
	// strata approve does.
	ApproveEnvironment(ctx context.Context, env *environment.Environment, dir string, req approval.Request) (approval.Approval, error)
	// Settings are env's settings with the options' overrides applied.
	Settings(env *environment.Environment) (environment.Settings, error)
	// StateDir is the options' state directory ("" for none).
	StateDir() string
}
