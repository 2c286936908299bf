package reconcile

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/source"
	"github.com/strata-iac/strata/orchestrator/source/artifact"
	"github.com/strata-iac/strata/orchestrator/source/bucket"
	"github.com/strata-iac/strata/orchestrator/source/git"
	"github.com/strata-iac/strata/orchestrator/source/oci"
	"golang.org/x/sync/errgroup"
)

// resolved is a stack's source, pinned, or why it could not be.
type resolved struct {
	source source.Resolved
	err    error
}

// resolve pins every stack's source. The code a deleted stack's last run
// left, once its source is gone, is read from the history (remove).
func (p *pass) resolve(ctx context.Context) error {
	p.resolver = newResolver(p.env, p.stores.StateDir, p.registries, p.dockerConfig)
	if kept, ok := p.stores.History.(artifact.Kept); ok {
		p.resolver.Artifacts.(*artifact.Fetcher).Kept = kept
	}
	p.sources = resolve(ctx, p.log, p.env, p.resolver)
	return nil
}

// newResolver returns the resolver for an environment's sources: this
// repository's checkout, OCI registries (those named in insecure reached
// over plain http too, with the credentials of the Docker config file
// dockerConfig), other git repositories and buckets, each through a
// client whose cache is under the state directory.
func newResolver(env *environment.Environment, stateDir string, insecure []string, dockerConfig string) *source.Resolver {
	return &source.Resolver{
		Root: env.Root,
		Registry: oci.New(oci.Options{
			CacheDir:     filepath.Join(stateDir, "cache", "oci"),
			Insecure:     append(source.InsecureHosts(env), insecure...),
			DockerConfig: dockerConfig,
		}),
		Artifacts: &artifact.Fetcher{CacheDir: filepath.Join(stateDir, "cache", "artifacts")},
		Git:       &git.Fetcher{CacheDir: filepath.Join(stateDir, "cache", "git")},
		Buckets:   &bucket.Fetcher{CacheDir: filepath.Join(stateDir, "cache", "buckets")},
	}
}

// resolve pins every stack's source to a version and digest. A stack whose
// source cannot be resolved does not run, and neither do its dependents;
// the others still do.
func resolve(ctx context.Context, log *slog.Logger, env *environment.Environment, r *source.Resolver) map[string]resolved {
	results := make([]resolved, len(env.Stacks))
	// Resolving asks registries for tags and digests: the stacks are
	// resolved side by side, a few at a time.
	var g errgroup.Group
	g.SetLimit(resolveParallelism)
	for i, s := range env.Stacks {
		g.Go(func() error {
			res, err := r.Resolve(ctx, s)
			results[i] = resolved{source: res, err: err}
			return nil
		})
	}
	_ = g.Wait() // every error is the stack's own, kept in its result
	out := make(map[string]resolved, len(env.Stacks))
	for i, s := range env.Stacks {
		res := results[i]
		if res.err != nil {
			log.Error(res.err.Error(), "stack", s.Name)
		} else if res.source.Constraint != "" && res.source.Constraint != res.source.Version {
			log.Debug(fmt.Sprintf("resolved %s to %s", res.source.Constraint, res.source.Origin), "stack", s.Name)
		}
		out[s.Name] = res
	}
	return out
}

// resolveParallelism bounds the sources resolved at once.
const resolveParallelism = 8
