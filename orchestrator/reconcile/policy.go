package reconcile

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/policy"
)

// loadPolicy prepares the policy engine for the whole reconcile. A policy
// that fails to load is not fatal to the reconcile: it is a
// runner.FailingPolicy, which holds every plan with changes (policies fail
// closed), and the error says why.
func loadPolicy(ctx context.Context, opts policy.Options) (runner.Policy, error) {
	e, err := policy.Load(ctx, opts)
	if err != nil {
		return runner.FailingPolicy(err), err
	}
	return e, nil
}

// lazyPolicy loads the policies when a plan is first judged, once for the
// whole reconcile. The runner judges only plans with changes, so a
// reconcile whose plans change nothing (a drift check that finds none, or
// nothing due) never compiles them: compiling is most of what the policy
// engine costs in time and memory.
type lazyPolicy struct {
	load func(context.Context) (runner.Policy, error)
	log  *slog.Logger
	once sync.Once
	pol  runner.Policy
}

func newLazyPolicy(load func(context.Context) (runner.Policy, error), log *slog.Logger) *lazyPolicy {
	return &lazyPolicy{load: load, log: log}
}

// Eval loads the policies if no plan was judged yet, then judges the plan.
// They are loaded under a context that the first plan's timeout does not
// cancel: a load cut short by one stack would fail every later plan.
func (p *lazyPolicy) Eval(ctx context.Context, planJSON []byte, meta policy.Meta) (policy.Decision, error) {
	p.once.Do(func() {
		pol, err := p.load(context.WithoutCancel(ctx))
		if err != nil {
			p.log.Error(fmt.Sprintf("policy failed to load: %v; every plan with changes is held", err))
		}
		p.pol = pol
	})
	return p.pol.Eval(ctx, planJSON, meta)
}
