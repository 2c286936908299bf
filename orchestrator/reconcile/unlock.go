package reconcile

import (
	"context"
	"fmt"

	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/statefile"
	"github.com/strata-iac/strata/orchestrator/validate"
)

// Unlock releases the state lock lockID of a stack of the environment at
// dir, and records in history who did it (by) and why: `tofu force-unlock`
// for S3 and custom backends, the removal of the info file a crash left
// for a local state. A lock that can be read and has another ID, or a
// local lock a live process holds, is refused.
func Unlock(ctx context.Context, dir, stack, lockID, by, reason string, opts Options) (history.Run, error) {
	env, _, err := validate.Environment(ctx, dir)
	if err != nil {
		return history.Run{}, err
	}
	s := env.Stack(stack)
	if s == nil {
		return history.Run{}, fmt.Errorf("unlock: environment %s has no stack %q", dir, stack)
	}
	set, err := opts.Settings(env)
	if err != nil {
		return history.Run{}, err
	}
	backend := stateBackend(set.State)
	states, err := stateReader(ctx, backend)
	if err != nil {
		return history.Run{}, err
	}
	st, err := envstores.OpenStores(ctx, env, set, opts.Records)
	if err != nil {
		return history.Run{}, err
	}
	defer st.Close()
	r := runner.New(runner.Config{
		Tofu:           opts.Tofu,
		StateDir:       st.StateDir,
		History:        st.History,
		Backend:        backend,
		StateReader:    states,
		OpenState:      openState,
		Logger:         opts.Logger,
		ProviderMirror: set.ProviderMirror,
	})
	return r.Unlock(ctx, runner.UnlockRequest{
		Client: env.Client, Env: env.Name, Stack: s, LockID: lockID, By: by, Reason: reason,
	})
}

// stateReader reads the state objects of an S3 state backend; nil for
// local state.
func stateReader(ctx context.Context, backend runner.StateBackend) (runner.StateReader, error) {
	if backend.Kind != runner.BackendS3 {
		return nil, nil
	}
	return openState(ctx, backend.Bucket, backend.Region, backend.Endpoint)
}

// openState reads the state objects of one S3 bucket: the environment's
// backend, or one a stack's own s3 backend block names.
func openState(ctx context.Context, bucket, region, endpoint string) (runner.StateReader, error) {
	return statefile.NewS3(ctx, bucket, region, endpoint)
}
