package runner

import (
	"context"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/history"
)

// History is where a runner records its runs and reads the stack's past
// ones: the state directory's history.Store, or the records a cluster
// keeps for every replica.
type History interface {
	// Begin stores the stack's next run as running and returns it with
	// its number.
	Begin(ctx context.Context, r history.Run) (history.Run, error)
	// Record stores r over the run with its number.
	Record(ctx context.Context, r history.Run) error
	Last(ctx context.Context, client, env, stack string) (history.Run, bool, error)
	LastMatching(ctx context.Context, client, env, stack string, match func(history.Run) bool) (history.Run, bool, error)
	LastGood(ctx context.Context, client, env, stack string) (history.Run, bool, error)
	// Head returns the stack's newest run, newest that is not an unlock
	// and last good run, as far as a run reads them (history.Head): what
	// a run reads of the stack's history before it begins.
	Head(ctx context.Context, client, env, stack string) (history.Head, error)
	// List returns the stack's runs newest first, at most limit (all when
	// limit <= 0).
	List(ctx context.Context, client, env, stack string, limit int) ([]history.Run, error)
}

// Approvals keeps the plans a runner holds and reads the approvals people
// give them: files under the state directory (approval.Store), or the
// cluster's records. A held plan's Dir is a local directory with its plan
// file, JSON and summary.
type Approvals interface {
	Hold(ctx context.Context, h approval.Held, planFile string, planJSON []byte, summary string) (approval.Held, error)
	HeldPlan(ctx context.Context, client, env, stack, id string) (approval.Held, error)
	HeldPlans(ctx context.Context, client, env, stack string) ([]approval.Held, error)
	Approved(ctx context.Context, client, env, stack, id string) (approval.Approval, bool, error)
	Release(ctx context.Context, client, env, stack, id string) error
}
