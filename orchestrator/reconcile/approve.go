package reconcile

import (
	"context"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/approve"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// Approve records a person's approval of one held plan of the environment
// in dir, where the options keep held plans (approve.InDir).
func Approve(ctx context.Context, dir string, req approval.Request, opts Options) (approval.Approval, error) {
	return approve.InDir(ctx, dir, req, opts.approvals())
}

// ApproveEnvironment is Approve for an environment already loaded
// (approve.InEnvironment): what strata controller builds from a namespace.
func ApproveEnvironment(ctx context.Context, env *environment.Environment, dir string, req approval.Request, opts Options) (approval.Approval, error) {
	return approve.InEnvironment(ctx, env, dir, req, opts.approvals())
}

// approvals say where the options keep held plans and approvals.
func (o Options) approvals() approve.Stores {
	return approve.Stores{Settings: o.Settings, Records: o.Records}
}
