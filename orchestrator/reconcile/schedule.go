package reconcile

import (
	"context"
	"errors"
	"maps"
	"sync"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/internal/recovered"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/scheduler"
	"github.com/strata-iac/strata/orchestrator/source"
)

// schedule runs the stacks in graph order, at most the runner limit at
// once (shared with other environments' reconciles when a pool is set),
// and keeps what each did.
func (p *pass) schedule(ctx context.Context) error {
	env, arts, readers := p.env, p.sources, p.readers
	producers := make(map[string]string)
	for _, s := range env.Stacks {
		if s.Produces != "" {
			producers[s.Produces] = s.Name
		}
	}
	tasks := make([]scheduler.Task, 0, len(env.Stacks))
	for _, name := range p.graph.Order() {
		t := scheduler.Task{Name: name}
		for _, e := range p.graph.Deps(name) {
			t.Deps = append(t.Deps, e.To)
		}
		tasks = append(tasks, t)
	}
	// A plan previews each consumer against the contract its producer's
	// plan would publish, when that is known before apply.
	var previewMu sync.Mutex
	previews := map[string]contracts.Document{}
	preview := func() map[string]contracts.Document {
		previewMu.Lock()
		defer previewMu.Unlock()
		return maps.Clone(previews)
	}
	// Each stack's result goes straight into the map: a channel buffered
	// for every stack held a second copy of them all (6 MB at 10,000
	// stacks) from the first run to the last.
	var outMu sync.Mutex
	out := make(map[string]runner.Result, len(tasks))
	errs := scheduler.RunShared(ctx, tasks, p.limit, p.pool, func(ctx context.Context, name string) error {
		a := arts[name]
		stack := env.Stack(name)
		var art source.Artifact
		if stack.Frozen == "" || stack.FrozenOnceRun {
			// A stack Flux applies no change to keeps what it last ran
			// (runner's keepFrozen), which needs no source.
			if a.err != nil {
				return a.err
			}
			var err error
			if art, err = p.resolver.Fetch(ctx, stack, a.source); err != nil {
				p.log.Error(err.Error(), "stack", name)
				return err
			}
		}
		res, err := p.runs.Run(ctx, runner.Request{
			Operation: p.op,
			Client:    env.Client, Env: env.Name, Class: env.Class,
			Stack:     stack,
			Artifact:  art,
			Producers: producers,
			Readers:   readers.Readers(stack.Produces),
			Reads:     readers.Of(name),
			Preview:   preview(),
			EnvDir:    p.dir,
		})
		if res.Next != nil && stack.Produces != "" && p.op == history.OperationPlan {
			previewMu.Lock()
			previews[stack.Produces] = *res.Next
			previewMu.Unlock()
		}
		outMu.Lock()
		out[res.Stack] = res
		outMu.Unlock()
		var held *runner.HeldError
		if errors.As(err, &held) {
			// A hold blocks nothing downstream: its contract is unchanged,
			// so its dependents run against the contract as it is, and
			// re-plan with cause upstream once the held plan is applied.
			return nil
		}
		return err
	})
	for name, err := range errs {
		var skip *scheduler.SkipError
		switch {
		case errors.As(err, &skip):
			if skip.Task == name {
				p.log.Warn(err.Error(), "stack", name)
			}
		case recovered.Stack(err) != nil:
			// The stack's run panicked: its error, with the trace.
			p.log.Error(err.Error(), "stack", name)
			recovered.Log(p.log.With("stack", name), err)
		}
		if _, ran := out[name]; !ran {
			out[name] = notRun(name, err)
		}
	}
	p.results = out
	return nil
}
