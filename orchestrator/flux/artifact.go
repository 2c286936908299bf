package flux

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/strata-iac/strata/orchestrator/checkout"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// rulesForRef returns the artifact rules of the source a reference from
// the object from names: those of the GitRepository it names, with its
// spec.ignore, else those of a checkout with no spec.ignore (the entry
// directory's, a reference to nothing rendered). It returns nil for an
// environment read from a cluster, whose sources are source-controller's
// artifacts already.
func (l *loader) rulesForRef(ref *sourceRef, from *object) *checkout.Rules {
	if l.artifacts != nil {
		return nil
	}
	var ignore *string
	if ref != nil && ref.Kind == environment.SourceGitRepository {
		if g := l.findGitRepository(ref, from); g != nil {
			ignore = g.Spec.Ignore
		}
	}
	return l.checkout.For(ignore)
}

// artifactFS is the repository as kustomize reads it, without what the
// artifact leaves out: such a path does not exist, and a listing or walk
// does not show it, so that a kustomization file naming one fails as it
// does in Flux.
type artifactFS struct {
	filesys.FileSystem
	rules *checkout.Rules
}

// excluded says why a path kustomize asks for, a directory or not, is
// not in the artifact; "" when it is.
func (f artifactFS) excluded(p string, isDir bool) string {
	if !filepath.IsAbs(p) {
		abs, err := filepath.Abs(p)
		if err != nil {
			return ""
		}
		p = abs
	}
	return f.rules.ExcludedAbs(p, isDir)
}

// excludedAny is excluded of a path whose kind is not known yet.
func (f artifactFS) excludedAny(p string) string {
	return f.excluded(p, f.FileSystem.IsDir(p))
}

// notInArtifact is the error of reading a path the artifact leaves out.
func notInArtifact(op, p, why string) error {
	return &fs.PathError{Op: op, Path: p, Err: fmt.Errorf("%w: it is not in the artifact Flux builds from: %s", fs.ErrNotExist, why)}
}

// Open opens a file the artifact holds.
func (f artifactFS) Open(p string) (filesys.File, error) {
	if why := f.excluded(p, false); why != "" {
		return nil, notInArtifact("open", p, why)
	}
	return f.FileSystem.Open(p)
}

// ReadFile reads a file the artifact holds.
func (f artifactFS) ReadFile(p string) ([]byte, error) {
	if why := f.excluded(p, false); why != "" {
		return nil, notInArtifact("open", p, why)
	}
	return f.FileSystem.ReadFile(p)
}

// Exists reports whether the artifact holds the path.
func (f artifactFS) Exists(p string) bool {
	return f.FileSystem.Exists(p) && f.excludedAny(p) == ""
}

// IsDir reports whether the artifact holds the path as a directory.
func (f artifactFS) IsDir(p string) bool {
	return f.FileSystem.IsDir(p) && f.excluded(p, true) == ""
}

// CleanedAbs resolves a path the artifact holds.
func (f artifactFS) CleanedAbs(p string) (filesys.ConfirmedDir, string, error) {
	if why := f.excludedAny(p); why != "" {
		return "", "", notInArtifact("stat", p, why)
	}
	return f.FileSystem.CleanedAbs(p)
}

// ReadDir lists what the artifact holds of a directory.
func (f artifactFS) ReadDir(p string) ([]string, error) {
	if why := f.excluded(p, true); why != "" {
		return nil, notInArtifact("open", p, why)
	}
	names, err := f.FileSystem.ReadDir(p)
	if err != nil {
		return names, err
	}
	kept := names[:0:0]
	for _, n := range names {
		if f.excludedAny(filepath.Join(p, n)) == "" {
			kept = append(kept, n)
		}
	}
	return kept, nil
}

// Glob matches what the artifact holds.
func (f artifactFS) Glob(pattern string) ([]string, error) {
	found, err := f.FileSystem.Glob(pattern)
	if err != nil {
		return found, err
	}
	kept := found[:0:0]
	for _, p := range found {
		if f.excludedAny(p) == "" {
			kept = append(kept, p)
		}
	}
	return kept, nil
}

// Walk walks what the artifact holds of a tree.
func (f artifactFS) Walk(p string, fn filepath.WalkFunc) error {
	return f.FileSystem.Walk(p, func(q string, info os.FileInfo, err error) error {
		if err == nil && info != nil && f.excluded(q, info.IsDir()) != "" {
			if info.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		return fn(q, info, err)
	})
}

// ignoreFiles is the ignore patterns, for Flux's generator of the
// directory abs, that leave out the files of left (under abs): each
// anchored to abs, its pattern characters escaped.
func ignoreFiles(abs string, left []string) string {
	var b strings.Builder
	for _, f := range left {
		rel, err := filepath.Rel(abs, f)
		if err != nil {
			continue
		}
		b.WriteString("/")
		for _, c := range filepath.ToSlash(rel) {
			if strings.ContainsRune(`\*?[]!# `, c) {
				b.WriteRune('\\')
			}
			b.WriteRune(c)
		}
		b.WriteString("\n")
	}
	return b.String()
}
