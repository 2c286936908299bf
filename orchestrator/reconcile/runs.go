package reconcile

import (
	"context"

	"github.com/strata-iac/strata/orchestrator/hashkey"
	"github.com/strata-iac/strata/orchestrator/lineage"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// prepareRuns makes the runner's configuration and what runs each stack:
// tofu in this process (runner.New), or what Options.Runs makes of the
// configuration (strata controller's runner Jobs), limited to the stacks
// Options.Only selects. The policies are compiled when the first plan
// with changes needs them: a reconcile whose plans change nothing never
// loads them.
func (p *pass) prepareRuns(ctx context.Context) error {
	backend := stateBackend(p.State)
	states, err := stateReader(ctx, backend)
	if err != nil {
		return err
	}
	key := p.hashKey
	if key == nil {
		if key, err = hashkey.Load(p.stores.StateDir); err != nil {
			return err
		}
	}
	pol := newLazyPolicy(func(ctx context.Context) (runner.Policy, error) { return loadPolicy(ctx, p.policy) }, p.log)
	p.config = runner.Config{
		HashKey:         key,
		StateReader:     states,
		OpenState:       openState,
		KubernetesLocks: p.kubernetesLocks,
		Tofu:            p.tofu,
		StateDir:        p.stores.StateDir,
		Contracts:       p.stores.Contracts,
		ContractPrefix:  p.stores.ContractPrefix,
		Schemas:         lineage.New(p.stores.StateDir, p.env.Client, p.env.Name),
		History:         p.stores.History,
		Approvals:       p.stores.Approvals,
		Backend:         backend,
		Policy:          pol,
		Logger:          p.log,
		Timeout:         p.timeout,
		ShutdownGrace:   p.shutdownGrace,
		DriftInterval:   p.DriftInterval,
		StackIntervals:  p.stackIntervals,
		RetryWait:       p.retryWait,
		ProviderMirror:  p.ProviderMirror,
		// The CA file is read by tofu, in the stacks' workspaces: absolute.
		ProviderMirrorCA: p.ProviderMirrorCA,
	}
	p.runs = runner.New(p.config)
	if p.makeRuns != nil {
		p.runs = p.makeRuns(p.config)
	}
	if p.only != nil {
		p.runs = only{p.runs, p.only}
	}
	return nil
}
