package reconcile

import (
	"context"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/graph"
	"github.com/strata-iac/strata/orchestrator/validate"
)

// load is the environment the request names, validated, with its graph:
// the one it carries (Request.Env), or the one its directory holds,
// rendered once and kept in the state directory until one of the
// render's inputs changes (flux.LoadCached).
func load(ctx context.Context, req Request) (*environment.Environment, *graph.Graph, error) {
	if req.Env != nil {
		return req.Env, req.Graph, nil
	}
	return validate.Cached(ctx, req.Dir, req.Options.StateDir)
}
