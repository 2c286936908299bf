package checkout

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/fluxcd/pkg/sourceignore"
	"github.com/fluxcd/pkg/sourceignore/gitignore"
	gogit "github.com/go-git/go-git/v5"

	"github.com/strata-iac/strata/orchestrator/rendercache"
)

// Rules say which files of a checkout are not in the artifact
// source-controller packs for a GitRepository of it, so that strata reads
// the repository, and runs a stack's code, as Flux's controllers see them:
//   - source-controller's own exclusions (VCS files, CI folders such as
//     .github/, **/.sops.yaml, some binary extensions: sourceignore's
//     default matcher), the patterns of every .sourceignore file, and the
//     GitRepository's spec.ignore, in that order, as source-controller
//     reads them;
//   - a file git ignores (.gitignore files, .git/info/exclude) and has
//     not committed: a clone holds only what is committed.
//
// The rules of a directory are read the first time a path in it is asked
// about, so a load reads only the ignore files of the directories it
// reads. They are safe for concurrent use.
type Rules struct {
	// root is the checkout's root; git says whether it is a git work tree.
	root string
	git  bool
	// ignore are the GitRepository's spec.ignore patterns, and
	// ignoreText their text ("\x00" when unset).
	ignore     []gitignore.Pattern
	ignoreText string
	// rec, when set, records the ignore files read (see LoadCached).
	rec *rendercache.Recorder
	// read reads an ignore file, as os.ReadFile does (Cache.ReadWith);
	// nil is os.ReadFile. r.mu guards it.
	read func(string) ([]byte, error)

	mu sync.Mutex
	// dirs are the rules of each directory asked about, by its path
	// relative to root ("." for root).
	dirs map[string]*dirRules
	// tracked are the files git's index holds, read the first time a
	// file git ignores is asked about.
	tracked map[string]bool
}

// dirRules are the patterns that apply under one directory.
type dirRules struct {
	// excluded is set when the directory itself is left out (and with
	// it everything under it).
	excluded bool
	// source are the .sourceignore patterns of the directory and its
	// ancestors, root first, then spec.ignore's: the patterns that come
	// after sourceignore's defaults. gitPs are the .gitignore ones,
	// after .git/info/exclude.
	source, gitPs []gitignore.Pattern
}

// gitIgnoreFile is git's ignore file.
const gitIgnoreFile = ".gitignore"

// New returns the rules of the checkout at root for a
// GitRepository whose spec.ignore is ignore (nil when unset).
func New(root string, ignore *string, rec *rendercache.Recorder) *Rules {
	r := &Rules{root: root, rec: rec, dirs: map[string]*dirRules{}, ignoreText: ignoreKey(ignore)}
	if ignore != nil {
		r.ignore = sourceignore.ReadPatterns(strings.NewReader(*ignore), nil)
	}
	r.git = gitWorkTree(root)
	return r
}

// gitWorkTree reports whether the checkout at root is a git work tree,
// whose .gitignore files the rules read too.
func gitWorkTree(root string) bool {
	_, err := os.Lstat(filepath.Join(root, ".git"))
	return err == nil
}

// Excluded reports whether the path (relative to root, slash-separated)
// is left out of the artifact, and why: "" when it is in it.
func (r *Rules) Excluded(rel string, isDir bool) string {
	rel = path.Clean(rel)
	if rel == "." || strings.HasPrefix(rel, "../") || rel == ".." {
		return ""
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	d := r.dir(path.Dir(rel))
	if d.excluded {
		return r.why(path.Dir(rel))
	}
	return r.match(d, rel, isDir)
}

// Skip reports whether an absolute path is left out of the artifact.
func (r *Rules) Skip(abs string, isDir bool) bool { return r.ExcludedAbs(abs, isDir) != "" }

// Key identifies the rules among those of one checkout: its spec.ignore.
func (r *Rules) Key() string { return r.ignoreText }

// ExcludedAbs is Excluded of an absolute path; a path outside root is
// never excluded.
func (r *Rules) ExcludedAbs(abs string, isDir bool) string {
	rel, err := filepath.Rel(r.root, abs)
	if err != nil {
		return ""
	}
	return r.Excluded(filepath.ToSlash(rel), isDir)
}

// match says whether a path in a directory whose rules are d is left
// out, and why.
func (r *Rules) match(d *dirRules, rel string, isDir bool) string {
	parts := strings.Split(rel, "/")
	if r.sourceMatch(d, parts, isDir) {
		return "source-controller leaves it out of the artifact (its default exclusions, a .sourceignore file or the GitRepository's spec.ignore)"
	}
	if r.git && lastMatch(d.gitPs, parts, isDir) == gitignore.Exclude && !r.isTracked(rel, isDir) {
		return "git ignores it and it is not committed, so a clone of the repository does not have it"
	}
	return ""
}

// sourceMatch is sourceignore.NewDefaultMatcher of d's patterns: the last
// pattern that matches decides, d.source's before the defaults. Each
// default names one path component (a name, a directory's name, or
// **/name), so a path matches one when one of its components does
// (namePatterns.match).
func (r *Rules) sourceMatch(d *dirRules, parts []string, isDir bool) bool {
	switch lastMatch(d.source, parts, isDir) {
	case gitignore.Exclude:
		return true
	case gitignore.Include:
		return false
	}
	for i, name := range parts {
		if sourceDefaults.match(name, isDir || i < len(parts)-1) {
			return true
		}
	}
	return false
}

// namePatterns are sourceignore's default patterns read as what they are:
// names (".sops.yaml", "**/.flux.yaml"), directory names (".github/") and
// suffixes ("*.zip"). Each component of a path is checked against them
// with a map lookup and a few suffix tests, where the matcher runs two
// dozen globs.
type namePatterns struct {
	// names and dirNames are the literal names, of anything and of
	// directories only; suffixes follow a "*".
	names, dirNames map[string]bool
	suffixes        []string
	// exact is unset when a default is none of these: match then asks
	// matcher, sourceignore's default matcher, of the component.
	exact   bool
	matcher gitignore.Matcher
}

// sourceDefaults are sourceignore's defaults as namePatterns.
var sourceDefaults = func() namePatterns {
	n := namePatterns{names: map[string]bool{}, dirNames: map[string]bool{}, exact: true, matcher: sourceignore.NewDefaultMatcher(nil, nil)}
	for _, list := range []string{sourceignore.ExcludeVCS, sourceignore.ExcludeExt, sourceignore.ExcludeCI, sourceignore.ExcludeExtra} {
		for _, p := range strings.Split(list, ",") {
			p = strings.TrimPrefix(p, "**/")
			dirOnly := strings.HasSuffix(p, "/")
			p = strings.TrimSuffix(p, "/")
			rest, star := strings.CutPrefix(p, "*")
			switch {
			case strings.ContainsAny(rest, `*?[\/!`) || rest == "" || (star && dirOnly):
				n.exact = false
			case star:
				n.suffixes = append(n.suffixes, rest)
			case dirOnly:
				n.dirNames[rest] = true
			default:
				n.names[rest] = true
			}
		}
	}
	return n
}()

// match reports whether the defaults match a path component, a
// directory's or a file's name.
func (n namePatterns) match(name string, isDir bool) bool {
	if !n.exact {
		return n.matcher.Match([]string{name}, isDir)
	}
	if n.names[name] || (isDir && n.dirNames[name]) {
		return true
	}
	for _, s := range n.suffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// lastMatch is what the last of ps that matches the path says, as
// gitignore's matcher reads patterns: gitignore.NoMatch when none does.
func lastMatch(ps []gitignore.Pattern, parts []string, isDir bool) gitignore.MatchResult {
	for i := len(ps) - 1; i >= 0; i-- {
		if m := ps[i].Match(parts, isDir); m != gitignore.NoMatch {
			return m
		}
	}
	return gitignore.NoMatch
}

// why is the reason an excluded directory is left out: that of the
// ancestor whose parent is kept. r.mu is held.
func (r *Rules) why(dir string) string {
	for dir != "." {
		parent := r.dir(path.Dir(dir))
		if !parent.excluded {
			return path.Base(dir) + "/ is left out: " + r.match(parent, dir, true)
		}
		dir = path.Dir(dir)
	}
	return "source-controller leaves it out of the artifact"
}

// dir returns the rules of a directory, reading its ignore files the
// first time. r.mu is held.
func (r *Rules) dir(dir string) *dirRules {
	if d, ok := r.dirs[dir]; ok {
		return d
	}
	var d *dirRules
	var domain []string
	if dir == "." {
		d = &dirRules{}
		if r.git {
			d.gitPs = r.readPatterns(filepath.Join(r.root, ".git", "info", "exclude"), nil)
		}
	} else {
		parent := r.dir(path.Dir(dir))
		domain = strings.Split(dir, "/")
		if parent.excluded || r.match(parent, dir, true) != "" {
			d = &dirRules{excluded: true}
			r.dirs[dir] = d
			return d
		}
		d = &dirRules{source: parent.source, gitPs: parent.gitPs}
	}
	abs := filepath.Join(r.root, filepath.FromSlash(dir))
	if ps := r.readPatterns(filepath.Join(abs, sourceignore.IgnoreFile), domain); dir == "." {
		d.source = slices.Concat(ps, r.ignore)
	} else if len(ps) > 0 {
		// The directory's own patterns go before spec.ignore's, which
		// come last, as source-controller appends them.
		own := d.source[:len(d.source)-len(r.ignore)]
		d.source = slices.Concat(own, ps, r.ignore)
	}
	if r.git {
		if ps := r.readPatterns(filepath.Join(abs, gitIgnoreFile), domain); len(ps) > 0 {
			d.gitPs = slices.Concat(d.gitPs, ps)
		}
	}
	r.dirs[dir] = d
	return d
}

// readPatterns reads an ignore file's patterns, for paths under domain;
// none when it is not there or cannot be read.
func (r *Rules) readPatterns(file string, domain []string) []gitignore.Pattern {
	if r.rec != nil {
		r.rec.Probe(rendercache.File, file)
	}
	read := os.ReadFile
	if r.read != nil {
		read = r.read
	}
	b, err := read(file)
	if err != nil {
		return nil
	}
	return sourceignore.ReadPatterns(bytes.NewReader(b), domain)
}

// isTracked reports whether git's index holds the file, or a file under
// the directory: committed (or staged), it is in a clone though git
// ignores it. r.mu is held.
func (r *Rules) isTracked(rel string, isDir bool) bool {
	if r.tracked == nil {
		r.tracked = map[string]bool{}
		repo, err := gogit.PlainOpenWithOptions(r.root, &gogit.PlainOpenOptions{EnableDotGitCommonDir: true})
		if err != nil {
			return false
		}
		idx, err := repo.Storer.Index()
		if err != nil {
			return false
		}
		if r.rec != nil {
			r.rec.Probe(rendercache.File, filepath.Join(r.root, ".git", "index"))
		}
		for _, e := range idx.Entries {
			r.tracked[e.Name] = true
		}
	}
	if !isDir {
		return r.tracked[rel]
	}
	for name := range r.tracked {
		if strings.HasPrefix(name, rel+"/") {
			return true
		}
	}
	return false
}
