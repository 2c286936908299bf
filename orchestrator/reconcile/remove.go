package reconcile

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"slices"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/source"
	"github.com/strata-iac/strata/orchestrator/source/artifact"
)

// findRemoved finds the stacks that left the environment: those its
// history knows and it no longer holds. Options.Removable may keep some
// of them from being destroyed.
func (p *pass) findRemoved(ctx context.Context) error {
	known, err := p.stores.History.Stacks(ctx, p.env.Client, p.env.Name)
	if err != nil {
		return err
	}
	slices.Sort(known)
	// A stack renamed by namespace, its runs under its other name, does
	// not run, and those runs are not of a stack that left (renamed.go).
	held, kept, err := findRenamed(ctx, p.env, p.stores.History, known)
	if err != nil {
		return err
	}
	for name, e := range held {
		p.log.Error(e.Error(), "stack", name)
		p.sources[name] = resolved{err: e}
	}
	gone, err := removedStacks(ctx, p.env, p.stores.History, known)
	if err != nil {
		return err
	}
	gone = slices.DeleteFunc(gone, func(last history.Run) bool { return kept[last.Stack] })
	if p.removable != nil {
		gone = slices.DeleteFunc(gone, func(last history.Run) bool { return !p.removable(last.Stack) })
	}
	p.gone = gone
	return nil
}

// remove runs the stacks that left, after those that remain.
func (p *pass) remove(ctx context.Context) error {
	p.removals = remove(ctx, p.env, p.dir, p.op, p.config, p.gone, deleted{p.deleted, p.resolver, p.runs, p.log})
	return nil
}

// removedStacks finds the stacks that left the environment but whose
// resources still exist: stacks with a successful apply in the history,
// no longer in the repository, whose last successful apply was not their
// removal, and that strata has not let go of (orphaned).
func removedStacks(ctx context.Context, env *environment.Environment, h envstores.History, names []string) ([]history.Run, error) {
	if env.Incomplete() {
		// A Kustomization could not be built: a stack missing from the
		// environment may be one it would bring in, not one that left.
		return nil, nil
	}
	var out []history.Run
	for _, name := range names {
		if env.Stack(name) != nil || env.IsBlocked(name) {
			continue
		}
		// A stack strata let go of stays let go of (liveRun).
		last, ok, err := liveRun(ctx, h, env, name)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, last)
		}
	}
	return out, nil
}

// remove plans, and when policy or a person allows it applies, the
// destruction of every stack that left the environment whose last good
// run had spec.destroyResourcesOnDeletion: true; the others are orphaned:
// strata lets go of them and keeps their resources, state and contract.
// They run after the stacks that remain, one at a time: their place in
// the graph left with them. A stack whose deleted object still describes
// its code (deleted.stack) is destroyed by a run of that code, through
// the reconcile's runner.StackRunner.
func remove(ctx context.Context, env *environment.Environment, envDir string, op history.Operation, cfg runner.Config, gone []history.Run, del deleted) map[string]runner.Result {
	out := make(map[string]runner.Result, len(gone))
	r := runner.New(cfg)
	for _, last := range gone {
		if ctx.Err() != nil {
			out[last.Stack] = notRun(last.Stack, ctx.Err())
			continue
		}
		rr := runner.RemoveRequest{
			Operation: op, Client: env.Client, Env: env.Name, Class: env.Class, EnvDir: envDir,
			Stack: last.Stack, Last: last,
		}
		// The runner logs and reports a removal that fails; its error
		// has nothing to add.
		switch stack := del.stack(last.Stack); {
		case last.DestroyResourcesOnDeletion && stack != nil:
			out[last.Stack] = del.remove(ctx, env, envDir, op, stack, last)
		case last.DestroyResourcesOnDeletion:
			out[last.Stack], _ = r.Remove(ctx, rr)
		default:
			out[last.Stack], _ = r.Orphan(ctx, rr)
		}
	}
	return out
}

// deleted are the stacks that left the environment whose deleted
// Terraform object still describes their code (Options.Deleted), the
// resolver of that code, and what runs them.
type deleted struct {
	of       func(stack string) *environment.Stack
	resolver *source.Resolver
	runs     runner.StackRunner
	log      *slog.Logger
}

// stack is the stack as its deleted object describes it, or nil.
func (d deleted) stack(name string) *environment.Stack {
	if d.of == nil {
		return nil
	}
	return d.of(name)
}

// remove destroys a deleted stack's resources by a run of its code: the
// code is resolved and fetched as any stack's, then run with Removal set.
func (d deleted) remove(ctx context.Context, env *environment.Environment, envDir string, op history.Operation, stack *environment.Stack, last history.Run) runner.Result {
	fail := func(err error) runner.Result {
		err = fmt.Errorf("remove stack %s: %w", stack.Name, err)
		d.log.Error(err.Error(), "stack", stack.Name)
		return runner.Result{
			Stack: stack.Name, Message: err.Error(),
			Run: history.Run{
				Client: env.Client, Env: env.Name, Stack: stack.Name, Operation: op, Cause: runner.CauseRemoved,
				Result: history.ResultFailed, Error: err.Error(),
			},
		}
	}
	if a := stack.Source.Artifact; a != nil && a.URL == "" && last.Digest != "" {
		// Its source has no artifact any more (deleted, or not ready):
		// its code is the one its last good run ran, which strata kept
		// in the records (runner Jobs and this process read it there).
		cp := *stack
		cp.Source.Artifact = &environment.Artifact{
			URL: artifact.KeptURL(env.Client, env.Name, stack.Name), Digest: last.Digest,
			Revision: cmp.Or(last.ToVersion, last.Digest),
		}
		d.log.Info(fmt.Sprintf("%s %s has no artifact: destroying with the code of run #%d (%s), kept in the records", stack.Source.Kind, stack.Source.Name, last.Number, last.Digest), "stack", stack.Name)
		stack = &cp
	}
	res, err := d.resolver.Resolve(ctx, stack)
	if err != nil {
		return fail(err)
	}
	art, err := d.resolver.Fetch(ctx, stack, res)
	if err != nil {
		return fail(err)
	}
	// The runner logs and reports a removal that fails; its error has
	// nothing to add.
	out, _ := d.runs.Run(ctx, runner.Request{
		Operation: op, Client: env.Client, Env: env.Name, Class: env.Class, EnvDir: envDir,
		Stack: stack, Artifact: art, Removal: &last,
	})
	return out
}
