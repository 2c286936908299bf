package source

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/strata-iac/strata/internal/deadline"
	"github.com/strata-iac/strata/orchestrator/checkout"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/flux"
	"github.com/strata-iac/strata/orchestrator/source/git"
	"github.com/strata-iac/strata/orchestrator/source/oci"
)

// Registry is what a Resolver needs of an OCI registry client;
// *oci.Client is one.
type Registry interface {
	Resolve(ctx context.Context, url string, ref oci.Ref) (oci.Resolved, error)
	Pull(ctx context.Context, r oci.Resolved) (string, error)
}

// Resolver resolves and fetches the stacks of one repository, for one
// reconcile: it hashes each local directory once, so a directory changed
// after its first stack resolved keeps the digest it had then until a new
// Resolver is made.
type Resolver struct {
	// Root is the repository root, for GitRepository flux-system sources.
	Root string
	// Registry reaches OCI registries; nil when the environment has no
	// OCIRepository source.
	Registry Registry
	// Artifacts downloads source-controller artifacts, for stacks read
	// from a cluster (environment.Source.Artifact); *artifact.Fetcher is
	// one.
	Artifacts Artifacts
	// Git fetches GitRepositories that are not this repository;
	// *git.Fetcher is one.
	Git GitFetcher
	// Buckets fetches Bucket sources; *bucket.Fetcher is one.
	Buckets BucketFetcher

	mu     sync.Mutex
	hashes map[string]*dirHash
	// rules are the checkout's artifact rules, by spec.ignore.
	rules *checkout.Cache
}

// Artifacts is what a Resolver needs to fetch source-controller artifacts:
// the directory of the content at url, whose digest is checked.
type Artifacts interface {
	Fetch(ctx context.Context, url, digest string) (string, error)
}

// GitFetcher is what a Resolver needs to fetch a GitRepository: its tree
// at the commit its ref names.
type GitFetcher interface {
	Fetch(ctx context.Context, repo git.Repository) (git.Tree, error)
}

// Resolved is a stack's source pinned to one exact version and digest,
// before anything is downloaded.
type Resolved struct {
	// Constraint is what the repository asks for: a semver range, an exact
	// version, a tag or a digest, as written.
	Constraint string
	// Version is the exact version, when there is one.
	Version string
	// Digest identifies the exact content: the OCI manifest digest
	// ("sha256:…") or the h1 hash of a local directory ("h1:…").
	Digest string
	// Origin says where the code comes from, for logs and reports.
	Origin string

	artifact *oci.Resolved
	localDir string
	// localRoot is what localDir lies in when it is not the
	// repository's checkout: a fetched tree.
	localRoot string
	// rules, for code in this repository's checkout, say which of its
	// files are not the stack's code.
	rules *checkout.Rules
	// remote is the source-controller artifact of a stack read from a
	// cluster.
	remote *environment.Artifact
}

// Artifact is a stack's code, ready to run.
type Artifact struct {
	// Dir holds the stack's root module.
	Dir string
	// Root is what Dir lies in: the repository's checkout, or the pulled
	// artefact. Symlinks in the stack's code may point anywhere inside it,
	// and nowhere else.
	Root string
	// Version is the stack's version, when it has an exact one.
	Version string
	// Digest identifies the exact content.
	Digest string
	// Origin says where the code came from.
	Origin string
	// URL is where a runner elsewhere fetches the same code again (a
	// source-controller artifact), checking Digest; empty for code that
	// is only on this machine.
	URL string `json:"url,omitempty"`
	// Skip, when set, says which paths under Dir (absolute, as found
	// there) are not the stack's code: for code in this repository's
	// checkout, what source-controller would leave out of its artifact
	// (package checkout). Digest is of what it keeps.
	Skip func(path string, isDir bool) bool `json:"-"`
}

// ErrUnsupported is returned for source kinds strata cannot fetch.
var ErrUnsupported = errors.New("unsupported source")

// Resolve pins a stack's source: for an OCIRepository, the highest tag that
// satisfies the constraint and its digest (or the tag, or the digest, as
// spec.ref says); for this repository's own checkout, the directory's
// content hash.
func (r *Resolver) Resolve(ctx context.Context, s *environment.Stack) (Resolved, error) {
	if err := ctx.Err(); err != nil {
		return Resolved{}, err
	}
	switch {
	case s.Source.Artifact != nil:
		return resolveArtifact(s)
	case s.Source.Local():
		return r.resolveLocal(s)
	case s.Source.Kind == environment.SourceOCIRepository:
		return r.resolveOCI(ctx, s)
	case s.Source.Git != nil:
		return r.resolveGit(ctx, s)
	case s.Source.Bucket != nil:
		return r.resolveBucket(ctx, s)
	default:
		return Resolved{}, fmt.Errorf("resolve stack %s: %s %q: %w", s.Name, s.Source.Kind, s.Source.Name, ErrUnsupported)
	}
}

// FetchError is a stack whose code could not be fetched or unpacked, or
// has no directory at the stack's path: nothing of the stack ran. strata
// controller says it with the Tofu Controller's reason, ArtifactFailed.
type FetchError struct {
	Stack string
	Err   error
}

func (e *FetchError) Error() string { return fmt.Sprintf("fetch stack %s: %v", e.Stack, e.Err) }

func (e *FetchError) Unwrap() error { return e.Err }

// Fetch makes the resolved code available on disk: an OCI artefact is
// pulled by digest into the content-addressed cache (a cached digest is
// never downloaded again).
func (r *Resolver) Fetch(ctx context.Context, s *environment.Stack, res Resolved) (Artifact, error) {
	a := Artifact{Version: res.Version, Digest: res.Digest, Origin: res.Origin}
	if res.remote != nil {
		return r.fetchArtifact(ctx, s, res, a)
	}
	if res.artifact == nil {
		a.Dir, a.Root = res.localDir, r.Root
		if res.localRoot != "" {
			a.Root = res.localRoot
		}
		if res.rules != nil {
			a.Skip = res.rules.Skip
		}
		return a, nil
	}
	dir, err := deadline.Run(ctx, "pull "+res.Origin, s.Source.Deadline(), func(ctx context.Context) (string, error) {
		return r.Registry.Pull(ctx, *res.artifact)
	})
	if err != nil {
		return a, &FetchError{Stack: s.Name, Err: err}
	}
	a.Dir, a.Root = filepath.Join(dir, filepath.FromSlash(s.Path)), dir
	if fi, err := os.Stat(a.Dir); err != nil || !fi.IsDir() {
		return a, &FetchError{Stack: s.Name, Err: fmt.Errorf("artefact %s has no directory %q (spec.path of %s)", res.Origin, s.Path, s.File)}
	}
	return a, nil
}

func (r *Resolver) resolveLocal(s *environment.Stack) (Resolved, error) {
	dir := filepath.Join(r.Root, filepath.FromSlash(s.Path))
	fi, err := os.Stat(dir)
	if err != nil {
		return Resolved{}, fmt.Errorf("resolve stack %s from %s: %w", s.Name, s.Path, err)
	}
	if !fi.IsDir() {
		return Resolved{}, fmt.Errorf("resolve stack %s from %s: not a directory", s.Name, s.Path)
	}
	rules := r.checkoutRules(s.Source.Ignore)
	digest, err := r.hashDir(dir, rules)
	if err != nil {
		return Resolved{}, fmt.Errorf("resolve stack %s from %s: hash: %w", s.Name, s.Path, err)
	}
	return Resolved{
		Constraint: s.Version,
		Version:    exactVersion(s.Version),
		Digest:     digest,
		Origin:     s.Source.Name + ":" + s.Path,
		localDir:   dir,
		rules:      rules,
	}, nil
}

func (r *Resolver) resolveOCI(ctx context.Context, s *environment.Stack) (Resolved, error) {
	if r.Registry == nil {
		return Resolved{}, fmt.Errorf("resolve stack %s: no OCI registry client configured", s.Name)
	}
	ref := oci.Ref{Semver: s.Source.Semver, Tag: s.Source.Tag, Digest: s.Source.Digest}
	got, err := deadline.Run(ctx, "resolve "+s.Source.URL, s.Source.Deadline(), func(ctx context.Context) (oci.Resolved, error) {
		return r.Registry.Resolve(ctx, s.Source.URL, ref)
	})
	if err != nil {
		return Resolved{}, fmt.Errorf("stack %s (%s): %w", s.Name, s.Source.File, err)
	}
	version := got.Version
	if version == "" && exactVersion(got.Tag) != "" {
		version = got.Tag
	}
	origin := got.URL
	if got.Tag != "" {
		origin += ":" + got.Tag
	}
	return Resolved{
		Constraint: constraint(ref),
		Version:    version,
		Digest:     got.Digest,
		Origin:     origin + "@" + got.Digest,
		artifact:   &got,
	}, nil
}

// constraint is spec.ref as a user reads it.
func constraint(ref oci.Ref) string {
	switch {
	case ref.Digest != "":
		return ref.Digest
	case ref.Semver != "":
		return ref.Semver
	case ref.Tag != "":
		return "tag " + ref.Tag
	default:
		return "tag latest"
	}
}

// exactVersion returns v when it names exactly one version (not a range).
func exactVersion(v string) string {
	if flux.ExactSemver(v) {
		return v
	}
	return ""
}

// InsecureHosts lists the registry hosts that the environment's
// OCIRepository objects allow over plain http (spec.insecure).
func InsecureHosts(env *environment.Environment) []string {
	var hosts []string
	seen := map[string]bool{}
	for _, s := range env.Stacks {
		if s.Source.Kind != environment.SourceOCIRepository || !s.Source.Insecure {
			continue
		}
		host := strings.TrimPrefix(s.Source.URL, oci.Scheme)
		if i := strings.IndexByte(host, '/'); i >= 0 {
			host = host[:i]
		}
		if host != "" && !seen[host] {
			seen[host] = true
			hosts = append(hosts, host)
		}
	}
	return hosts
}

// resolveArtifact pins a stack read from a cluster to the artifact
// source-controller made of its source: its revision and digest.
func resolveArtifact(s *environment.Stack) (Resolved, error) {
	art := s.Source.Artifact
	if art.URL == "" {
		return Resolved{}, fmt.Errorf("resolve stack %s: %s %s has no artifact yet: source-controller has not fetched it (see its status)", s.Name, s.Source.Kind, s.Source.Name)
	}
	return Resolved{
		Constraint: s.Version,
		Version:    revisionVersion(art.Revision),
		Digest:     art.Digest,
		Origin:     fmt.Sprintf("%s/%s@%s", s.Source.Kind, s.Source.Name, art.Revision),
		remote:     art,
	}, nil
}

// revisionVersion is the exact version a source-controller revision names:
// an OCIRepository's "<tag>@sha256:…" when the tag is a version.
func revisionVersion(rev string) string {
	tag, _, _ := strings.Cut(rev, "@")
	return exactVersion(tag)
}

// fetchArtifact downloads a source-controller artifact into the cache and
// finds the stack's spec.path in it.
func (r *Resolver) fetchArtifact(ctx context.Context, s *environment.Stack, res Resolved, a Artifact) (Artifact, error) {
	if r.Artifacts == nil {
		return a, fmt.Errorf("fetch stack %s: no source-controller artifact client configured", s.Name)
	}
	dir, err := deadline.Run(ctx, "fetch artifact "+res.remote.URL, s.Source.Deadline(), func(ctx context.Context) (string, error) {
		return r.Artifacts.Fetch(ctx, res.remote.URL, res.remote.Digest)
	})
	if err != nil {
		return a, &FetchError{Stack: s.Name, Err: err}
	}
	a.Dir, a.Root, a.URL = filepath.Join(dir, filepath.FromSlash(s.Path)), dir, res.remote.URL
	if fi, err := os.Stat(a.Dir); err != nil || !fi.IsDir() {
		return a, &FetchError{Stack: s.Name, Err: fmt.Errorf("artifact %s has no directory %q (spec.path of %s)", res.Origin, s.Path, s.File)}
	}
	return a, nil
}
