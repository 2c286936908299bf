package reconcile

import (
	"context"
	"log/slog"

	"github.com/strata-iac/strata/orchestrator/consumers"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/source"
)

// Consumers indexes who reads which keys of which contract in env, reading
// each consumer's code where its source resolves: this checkout, or its
// OCI artefact, pulled into the cache. A consumer whose source does not
// resolve is indexed as reading every key of what it consumes.
func Consumers(ctx context.Context, env *environment.Environment, opts Options) consumers.Index {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	resolver := newResolver(env, opts.StateDir, opts.InsecureRegistries, opts.DockerConfig)
	arts := resolve(ctx, log, env, resolver)
	return consumers.Find(env, codeDirs(ctx, log, env, resolver, arts))
}

// findReaders finds who reads which key of each contract, from the
// consumers' code: a producer's plan that would break one of them is
// held, and the review lists those that will re-plan.
func (p *pass) findReaders(ctx context.Context) error {
	p.readers = consumers.Find(p.env, codeDirs(ctx, p.log, p.env, p.resolver, p.sources))
	return nil
}

// codeDirs gives the directory of each stack's fetched code, fetching it
// on first use; "" when it cannot be had.
func codeDirs(ctx context.Context, log *slog.Logger, env *environment.Environment, resolver *source.Resolver, arts map[string]resolved) consumers.Dirs {
	return func(stack string) string {
		a, ok := arts[stack]
		if !ok || a.err != nil {
			return ""
		}
		art, err := resolver.Fetch(ctx, env.Stack(stack), a.source)
		if err != nil {
			log.Error(err.Error(), "stack", stack)
			return ""
		}
		return art.Dir
	}
}
