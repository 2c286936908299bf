package recordstest

import (
	"context"
	"testing"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/history"
)

// History is the history under test.
type History interface {
	Begin(ctx context.Context, r history.Run) (history.Run, error)
	Record(ctx context.Context, r history.Run) error
	Last(ctx context.Context, client, env, stack string) (history.Run, bool, error)
	LastMatching(ctx context.Context, client, env, stack string, match func(history.Run) bool) (history.Run, bool, error)
	LastGood(ctx context.Context, client, env, stack string) (history.Run, bool, error)
	Head(ctx context.Context, client, env, stack string) (history.Head, error)
	List(ctx context.Context, client, env, stack string, limit int) ([]history.Run, error)
	Stacks(ctx context.Context, client, env string) ([]string, error)
	Claim(ctx context.Context, owner string, keys []string, gone func(owner string) bool) (map[string]string, error)
	Retain(client, env string, keep history.Retention, gone func(stack string, number int))
}

// Approvals is the held plans and approvals under test.
type Approvals interface {
	Hold(ctx context.Context, h approval.Held, planFile string, planJSON []byte, summary string) (approval.Held, error)
	HeldPlan(ctx context.Context, client, env, stack, id string) (approval.Held, error)
	HeldPlans(ctx context.Context, client, env, stack string) ([]approval.Held, error)
	Approved(ctx context.Context, client, env, stack, id string) (approval.Approval, bool, error)
	Approve(ctx context.Context, a approval.Approval) error
	Release(ctx context.Context, client, env, stack, id string) error
}

// Records is one writer's view of the records.
type Records struct {
	History   History
	Approvals Approvals
}

// Impl is one implementation of the records.
type Impl struct {
	Name string
	// Open returns a writer of new, empty records.
	Open func(t *testing.T) Records
	// Next returns the writer that comes after prev stopped, killed in
	// the middle of its runs: the same records, opened again.
	Next func(t *testing.T, prev Records) Records
	// Replica returns a second writer of the same records, at the same
	// time as first.
	Replica func(t *testing.T, first Records) Records
}

// Run runs the contract against every implementation, each case in a
// subtest of its own with new records.
func Run(t *testing.T, impls []Impl) {
	for _, impl := range impls {
		t.Run(impl.Name, func(t *testing.T) {
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) { c.test(t, impl) })
			}
		})
	}
}

// cases are the contract, case by case.
var cases = []struct {
	name string
	test func(t *testing.T, impl Impl)
}{
	{"numbers runs per stack", testNumbers},
	{"records over a begun run", testRecord},
	{"reads last, last good and matching", testLast},
	{"reads a stack's head", testHead},
	{"lists stacks and runs", testList},
	{"claims keys", testClaim},
	{"next writer interrupts a running run", testInterrupted},
	{"keeps runs as its retention says", testRetain},
	{"replicas racing never share a number", testRace},
	{"holds, approves and releases plans", testHold},
	{"holds a large plan whole", testLargePlan},
	{"refuses invalid plan ids", testInvalidIDs},
}
