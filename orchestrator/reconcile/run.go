package reconcile

import (
	"context"
	"time"

	"github.com/strata-iac/strata/orchestrator/consumers"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/graph"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/source"
)

// Request is one reconcile of one environment.
type Request struct {
	// Dir is the environment's directory in a checkout, which Run loads
	// (step load). With Env set, Dir only names the environment in
	// messages.
	Dir string
	// Env and Graph, when set, are an environment already loaded and
	// validated, and its graph (Graph): what strata controller builds
	// from a namespace (flux.LoadNamespace).
	Env   *environment.Environment
	Graph *graph.Graph
	// Operation is a plan or an apply.
	Operation history.Operation
	// Options say how; Run settles them once against the environment
	// (step settle), and no step below reads them.
	Options Options
}

// Run runs one reconcile of one environment, one step after another.
// The error is for the reconcile as a whole (an invalid environment, a
// state directory that cannot be opened, an identity another environment
// holds); what each stack did is in the report.
func Run(ctx context.Context, req Request) (*report.Report, error) {
	started := time.Now()
	env, g, err := load(ctx, req)
	if err != nil {
		return nil, err
	}
	s, err := settle(env, req.Options)
	if err != nil {
		return nil, err
	}
	p := &pass{settings: s, env: env, graph: g, dir: req.Dir, op: req.Operation, started: started}
	defer p.close()
	steps := []func(context.Context) error{
		p.openStores,   // stores.go: history, held plans, contracts
		p.claim,        // identity.go: the environment's identity and state keys
		p.announce,     // announce.go: the first lines of the run log
		p.resolve,      // resolve.go: each stack's source, pinned
		p.findRemoved,  // remove.go: the stacks that left the environment
		p.prepareRuns,  // runs.go: what runs a stack, and with what
		p.findReaders,  // consumers.go: who reads which contract keys
		p.schedule,     // schedule.go: the stacks, in graph order
		p.remove,       // remove.go: the stacks that left, destroyed or let go
		p.keepVersions, // keepversions.go: the state versions read, for the next
	}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			return nil, err
		}
	}
	return p.report(), nil // report.go
}

// Reconcile is Run for the environment at dir, loaded from its checkout.
func Reconcile(ctx context.Context, dir string, op history.Operation, opts Options) (*report.Report, error) {
	return Run(ctx, Request{Dir: dir, Operation: op, Options: opts})
}

// pass is one reconcile as it goes: what each step found, for the steps
// after it.
type pass struct {
	settings
	env     *environment.Environment
	graph   *graph.Graph
	dir     string
	op      history.Operation
	started time.Time

	// stores and notes are openStores': the stores, and what repairing
	// them did.
	stores *envstores.Stores
	notes  []string
	// resolver and sources are resolve's: each stack's source, pinned,
	// or why not.
	resolver *source.Resolver
	sources  map[string]resolved
	// gone are findRemoved's: the last run of each stack that left.
	gone []history.Run
	// config and runs are prepareRuns': the runner's configuration and
	// what runs each stack.
	config runner.Config
	runs   runner.StackRunner
	// readers are findReaders': who reads which key of each contract.
	readers consumers.Index
	// results and removals are schedule's and remove's.
	results, removals map[string]runner.Result
}

// close closes what the steps opened.
func (p *pass) close() {
	if p.stores != nil {
		p.stores.Close()
	}
}
