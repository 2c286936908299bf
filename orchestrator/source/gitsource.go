package source

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"github.com/strata-iac/strata/internal/deadline"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/source/bucket"
	"github.com/strata-iac/strata/orchestrator/source/git"
)

// resolveGit pins a stack whose code is in another git repository: the
// tree of the commit its GitRepository's ref names is fetched (once per
// commit, see package git), and the digest is the h1 hash of the stack's
// directory in it, as for this repository's own code.
func (r *Resolver) resolveGit(ctx context.Context, s *environment.Stack) (Resolved, error) {
	gs := s.Source.Git
	if r.Git == nil {
		return Resolved{}, fmt.Errorf("resolve stack %s: no git client configured for GitRepository %s", s.Name, s.Source.Name)
	}
	repo := git.Repository{
		URL:         gs.URL,
		Ref:         git.Ref{Branch: gs.Branch, Tag: gs.Tag, Semver: gs.Semver, Name: gs.RefName, Commit: gs.Commit},
		Ignore:      gs.Ignore,
		Credentials: gs.Credentials,
	}
	// go-git's ssh dial does not look at its context: Run does not wait
	// for it past the deadline.
	tree, err := deadline.Run(ctx, "fetch "+redactURL(gs.URL), s.Source.Deadline(), func(ctx context.Context) (git.Tree, error) {
		return r.Git.Fetch(ctx, repo)
	})
	if err != nil {
		return Resolved{}, fmt.Errorf("resolve stack %s: GitRepository %s (%s): %w", s.Name, s.Source.Name, s.Source.File, err)
	}
	origin := redactURL(gs.URL) + "@" + tree.Revision
	return r.resolveTree(s, tree.Dir, repo.Ref.String(), exactVersion(tree.Tag), origin)
}

// resolveTree pins a stack whose code is at spec.path in a fetched tree.
func (r *Resolver) resolveTree(s *environment.Stack, root, constraint, version, origin string) (Resolved, error) {
	dir := filepath.Join(root, filepath.FromSlash(s.Path))
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return Resolved{}, fmt.Errorf("resolve stack %s: %s has no directory %q (spec.path of %s)", s.Name, origin, s.Path, s.File)
	}
	digest, err := r.hashDir(dir, nil)
	if err != nil {
		return Resolved{}, fmt.Errorf("resolve stack %s from %s: hash: %w", s.Name, origin, err)
	}
	return Resolved{
		Constraint: constraint,
		Version:    version,
		Digest:     digest,
		Origin:     origin,
		localDir:   dir,
		localRoot:  root,
	}, nil
}

// redactURL is a URL without the password it may hold (and then without
// its user either).
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	if _, ok := u.User.Password(); !ok {
		return raw
	}
	u.User = nil
	return u.String()
}

// BucketFetcher is what a Resolver needs to fetch a Bucket source: its
// content at the revision its objects make.
type BucketFetcher interface {
	Fetch(ctx context.Context, b bucket.Bucket) (bucket.Tree, error)
}

// resolveBucket pins a stack whose code is in a Bucket: the bucket's
// objects are fetched (once per revision, see package bucket), and the
// digest is the h1 hash of the stack's directory in them.
func (r *Resolver) resolveBucket(ctx context.Context, s *environment.Stack) (Resolved, error) {
	bs := s.Source.Bucket
	if r.Buckets == nil {
		return Resolved{}, fmt.Errorf("resolve stack %s: no S3 client configured for Bucket %s", s.Name, s.Source.Name)
	}
	tree, err := deadline.Run(ctx, fmt.Sprintf("fetch s3://%s/%s", bs.Endpoint, bs.BucketName), s.Source.Deadline(), func(ctx context.Context) (bucket.Tree, error) {
		return r.Buckets.Fetch(ctx, bucket.Bucket{
			Provider: bs.Provider, Name: bs.BucketName, Endpoint: bs.Endpoint, Region: bs.Region, Prefix: bs.Prefix,
			Insecure: bs.Insecure, Ignore: bs.Ignore, Credentials: bs.Credentials,
		})
	})
	if err != nil {
		return Resolved{}, fmt.Errorf("resolve stack %s: Bucket %s (%s): %w", s.Name, s.Source.Name, s.Source.File, err)
	}
	origin := fmt.Sprintf("s3://%s/%s@%s", bs.Endpoint, bs.BucketName, tree.Revision)
	return r.resolveTree(s, tree.Dir, "", "", origin)
}
