package git

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/Masterminds/semver/v3"
	fluxgit "github.com/fluxcd/pkg/git"
	"github.com/fluxcd/pkg/git/gogit"
	"github.com/fluxcd/pkg/git/repository"
	"github.com/fluxcd/pkg/sourceignore"
	"github.com/fluxcd/pkg/version"
)

// Repository is a GitRepository's spec, with its Secret's data.
type Repository struct {
	// URL is spec.url: http://, https:// or ssh://.
	URL string
	// Ref is spec.ref.
	Ref Ref
	// Ignore is spec.ignore; nil when unset.
	Ignore *string
	// Credentials are spec.secretRef's Secret data; nil without one.
	// Private.
	Credentials map[string][]byte
}

// Ref is a GitRepository's spec.ref.
type Ref struct {
	Branch, Tag, Semver, Name, Commit string
}

// String is the ref as a user reads it.
func (r Ref) String() string {
	switch {
	case r.Commit != "":
		return "commit " + r.Commit
	case r.Name != "":
		return r.Name
	case r.Tag != "":
		return "tag " + r.Tag
	case r.Semver != "":
		return r.Semver
	case r.Branch != "":
		return "branch " + r.Branch
	}
	return "branch " + fluxgit.DefaultBranch
}

// Tree is a fetched repository's content at one commit.
type Tree struct {
	// Dir holds the content, ignore rules applied.
	Dir string
	// Commit is the commit's SHA-1, hexadecimal.
	Commit string
	// Tag is the tag the ref resolved to, for a tag or a semver range.
	Tag string
	// Revision is the commit as source-controller names it:
	// <branch or tag>@sha1:<commit>.
	Revision string
}

// Fetcher fetches repositories into a cache directory, each commit once.
type Fetcher struct {
	// CacheDir holds the checkouts and trees.
	CacheDir string
	// Remote lists a remote's references and clones it; nil is Flux's
	// library over go-git.
	Remote Remote

	mu    sync.Mutex
	locks map[string]*sync.Mutex
}

// Remote is what a Fetcher needs of a git remote.
type Remote interface {
	// List returns the remote's references, by name, each the SHA-1 of
	// the commit it points to (an annotated tag peeled).
	List(ctx context.Context, url string, auth *fluxgit.AuthOptions) (map[string]string, error)
	// Clone checks the ref out into dir and returns the commit's SHA-1.
	Clone(ctx context.Context, dir, url string, auth *fluxgit.AuthOptions, ref repository.CheckoutStrategy) (string, error)
}

// Fetch returns the repository's tree at the commit its ref names,
// cloning it only when that commit is not in the cache yet.
func (f *Fetcher) Fetch(ctx context.Context, repo Repository) (Tree, error) {
	t, err := f.fetch(ctx, repo)
	if err != nil {
		return Tree{}, fmt.Errorf("fetch %s (%s): %w", repo.URL, repo.Ref, err)
	}
	return t, nil
}

func (f *Fetcher) fetch(ctx context.Context, repo Repository) (Tree, error) {
	if f.CacheDir == "" {
		return Tree{}, errors.New("no cache directory")
	}
	auth, err := authOptions(repo)
	if err != nil {
		return Tree{}, err
	}
	remote := f.Remote
	if remote == nil {
		remote = goGit{}
	}
	pin, err := f.pin(ctx, remote, repo, auth)
	if err != nil {
		return Tree{}, err
	}
	unlock := f.lock(pin.commit)
	defer unlock()
	tree := filepath.Join(f.CacheDir, "trees", pin.commit+"-"+ignoreKey(repo.Ignore))
	if _, err := os.Stat(tree); err == nil {
		return pin.tree(tree), nil
	}
	checkout := filepath.Join(f.CacheDir, "checkouts", pin.commit)
	if _, err := os.Stat(checkout); err != nil {
		got, err := f.clone(ctx, remote, repo.URL, auth, pin, checkout)
		if err != nil {
			return Tree{}, err
		}
		if got != pin.commit {
			// The ref moved between the listing and the clone: the
			// clone is what the ref names now.
			pin.commit = got
			checkout = filepath.Join(f.CacheDir, "checkouts", got)
			tree = filepath.Join(f.CacheDir, "trees", got+"-"+ignoreKey(repo.Ignore))
			if _, err := os.Stat(tree); err == nil {
				return pin.tree(tree), nil
			}
		}
	}
	if err := filterTree(checkout, tree, repo.Ignore); err != nil {
		return Tree{}, err
	}
	return pin.tree(tree), nil
}

// pinned is a ref pinned to a commit.
type pinned struct {
	commit, tag, ref string
	strategy         repository.CheckoutStrategy
}

// tree is the Tree of the pinned commit in dir.
func (p pinned) tree(dir string) Tree {
	rev := "sha1:" + p.commit
	if p.ref != "" {
		rev = p.ref + "@" + rev
	}
	return Tree{Dir: dir, Commit: p.commit, Tag: p.tag, Revision: rev}
}

// pin finds the commit the ref names, in source-controller's order:
// commit, name, tag, semver, branch.
func (f *Fetcher) pin(ctx context.Context, remote Remote, repo Repository, auth *fluxgit.AuthOptions) (pinned, error) {
	ref := repo.Ref
	if ref.Commit != "" {
		return pinned{commit: strings.ToLower(ref.Commit), ref: ref.Branch, strategy: repository.CheckoutStrategy{Commit: ref.Commit, Branch: ref.Branch}}, nil
	}
	refs, err := remote.List(ctx, repo.URL, auth)
	if err != nil {
		return pinned{}, err
	}
	find := func(name string) (string, error) {
		if c, ok := refs[name]; ok {
			return c, nil
		}
		return "", fmt.Errorf("the remote has no %s", name)
	}
	switch {
	case ref.Name != "":
		c, err := find(ref.Name)
		return pinned{commit: c, ref: ref.Name, strategy: repository.CheckoutStrategy{RefName: ref.Name}}, err
	case ref.Tag != "":
		c, err := find("refs/tags/" + ref.Tag)
		return pinned{commit: c, tag: ref.Tag, ref: ref.Tag, strategy: repository.CheckoutStrategy{Tag: ref.Tag}}, err
	case ref.Semver != "":
		tag, err := highestTag(refs, ref.Semver)
		if err != nil {
			return pinned{}, err
		}
		return pinned{commit: refs["refs/tags/"+tag], tag: tag, ref: tag, strategy: repository.CheckoutStrategy{Tag: tag}}, nil
	default:
		branch := ref.Branch
		if branch == "" {
			branch = fluxgit.DefaultBranch
		}
		c, err := find("refs/heads/" + branch)
		return pinned{commit: c, ref: branch, strategy: repository.CheckoutStrategy{Branch: branch}}, err
	}
}

// highestTag is the highest tag that satisfies the semver range, as
// source-controller picks it: tags parsed by fluxcd/pkg/version, which
// takes a leading v.
func highestTag(refs map[string]string, constraint string) (string, error) {
	c, err := semver.NewConstraint(constraint)
	if err != nil {
		return "", fmt.Errorf("semver %q: %w", constraint, err)
	}
	var names []string
	for name := range refs {
		if tag, ok := strings.CutPrefix(name, "refs/tags/"); ok {
			names = append(names, tag)
		}
	}
	sort.Strings(names)
	var best *semver.Version
	var bestTag string
	for _, tag := range names {
		v, err := version.ParseVersion(tag)
		if err != nil || !c.Check(v) {
			continue
		}
		if best == nil || v.GreaterThan(best) {
			best, bestTag = v, tag
		}
	}
	if best == nil {
		return "", fmt.Errorf("no tag matches semver %q", constraint)
	}
	return bestTag, nil
}

// clone clones the pinned ref into checkout, through a directory beside
// it, and returns the commit checked out.
func (f *Fetcher) clone(ctx context.Context, remote Remote, u string, auth *fluxgit.AuthOptions, pin pinned, checkout string) (string, error) {
	parent := filepath.Dir(checkout)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(parent, ".clone-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	commit, err := remote.Clone(ctx, tmp, u, auth, pin.strategy)
	if err != nil {
		return "", err
	}
	if err := os.RemoveAll(filepath.Join(tmp, ".git")); err != nil {
		return "", err
	}
	dst := filepath.Join(parent, commit)
	if err := os.Rename(tmp, dst); err != nil {
		if _, serr := os.Stat(dst); serr != nil {
			return "", err
		}
		// Another strata fetched the same commit first.
	}
	return commit, nil
}

// filterTree copies the checkout's regular files and directories into
// tree, leaving out what the ignore rules match, as source-controller
// leaves them out of its artifact (symlinks are left out too).
func filterTree(checkout, tree string, ignore *string) error {
	ps, err := sourceignore.LoadIgnorePatterns(checkout, nil)
	if err != nil {
		return fmt.Errorf("read .sourceignore: %w", err)
	}
	if ignore != nil {
		ps = append(ps, sourceignore.ReadPatterns(strings.NewReader(*ignore), nil)...)
	}
	matcher := sourceignore.NewDefaultMatcher(ps, nil)
	parent := filepath.Dir(tree)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, ".tree-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	err = filepath.WalkDir(checkout, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(checkout, p)
		if err != nil || rel == "." {
			return err
		}
		if matcher.Match(strings.Split(rel, string(filepath.Separator)), d.IsDir()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		dst := filepath.Join(tmp, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(dst, 0o755)
		case d.Type().IsRegular():
			return copyFile(p, dst)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("copy the tree: %w", err)
	}
	if err := os.Rename(tmp, tree); err != nil {
		if _, serr := os.Stat(tree); serr != nil {
			return err
		}
	}
	return nil
}

// copyFile copies a regular file, keeping its executable bits.
func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	fi, err := os.Stat(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, fi.Mode().Perm()|0o600)
}

// ignoreKey names a set of ignore rules in the cache.
func ignoreKey(ignore *string) string {
	s := "default"
	if ignore != nil {
		s = "spec:" + *ignore
	}
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}

// lock serialises the fetches of one commit in this process.
func (f *Fetcher) lock(commit string) func() {
	f.mu.Lock()
	if f.locks == nil {
		f.locks = map[string]*sync.Mutex{}
	}
	m := f.locks[commit]
	if m == nil {
		m = &sync.Mutex{}
		f.locks[commit] = m
	}
	f.mu.Unlock()
	m.Lock()
	return m.Unlock
}

// authOptions are the repository's credentials as source-controller
// makes them of its Secret: for ssh://, identity and known_hosts (and
// password, the key's passphrase); for http(s)://, username and password
// or bearerToken.
func authOptions(repo Repository) (*fluxgit.AuthOptions, error) {
	u, err := url.Parse(repo.URL)
	if err != nil {
		return nil, fmt.Errorf("url: %w", err)
	}
	opts, err := fluxgit.NewAuthOptions(*u, repo.Credentials)
	if err != nil {
		return nil, fmt.Errorf("credentials: %w", err)
	}
	return opts, nil
}

// goGit is a Remote through Flux's git library.
type goGit struct{}

// Clone clones with a gogit client, as source-controller does: shallow,
// with credentials allowed over plain http.
func (goGit) Clone(ctx context.Context, dir, u string, auth *fluxgit.AuthOptions, ref repository.CheckoutStrategy) (string, error) {
	opts := []gogit.ClientOption{gogit.WithDiskStorage()}
	if auth.Transport == fluxgit.HTTP {
		opts = append(opts, gogit.WithInsecureCredentialsOverHTTP())
	}
	c, err := gogit.NewClient(dir, auth, opts...)
	if err != nil {
		return "", fmt.Errorf("git client: %w", err)
	}
	defer c.Close()
	commit, err := c.Clone(ctx, u, repository.CloneConfig{CheckoutStrategy: ref, ShallowClone: true})
	if err != nil {
		return "", err
	}
	if commit == nil {
		return "", errors.New("the repository is empty")
	}
	return commit.Hash.String(), nil
}
