package flux

import (
	"path/filepath"

	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/strata-iac/strata/orchestrator/rendercache"
)

// recordingFS is the repository on disk as kustomize reads it, noting
// every read in a rendercache.Recorder: what a read depends on is probed
// before the read, and a file's content is taken from the read itself,
// so that the cached render never outlives a change made while it ran.
type recordingFS struct {
	filesys.FileSystem
	rec *rendercache.Recorder
}

// abs makes a path absolute, as the recorder keeps them.
func (f recordingFS) abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// Open records the file's content, then opens it.
func (f recordingFS) Open(p string) (filesys.File, error) {
	f.rec.Probe(rendercache.File, f.abs(p))
	return f.FileSystem.Open(p)
}

// IsDir records the path's kind, then reports whether it is a directory.
func (f recordingFS) IsDir(p string) bool {
	f.rec.Probe(rendercache.Stat, f.abs(p))
	return f.FileSystem.IsDir(p)
}

// Exists records the path's kind, then reports whether it exists.
func (f recordingFS) Exists(p string) bool {
	f.rec.Probe(rendercache.Stat, f.abs(p))
	return f.FileSystem.Exists(p)
}

// CleanedAbs records the path's kind, then resolves it.
func (f recordingFS) CleanedAbs(p string) (filesys.ConfirmedDir, string, error) {
	f.rec.Probe(rendercache.Stat, f.abs(p))
	return f.FileSystem.CleanedAbs(p)
}

// ReadDir records the directory's listing, then lists it.
func (f recordingFS) ReadDir(p string) ([]string, error) {
	f.rec.Probe(rendercache.List, f.abs(p))
	return f.FileSystem.ReadDir(p)
}

// Glob records the pattern's matches, then matches it.
func (f recordingFS) Glob(pattern string) ([]string, error) {
	f.rec.Probe(rendercache.Glob, f.abs(pattern))
	return f.FileSystem.Glob(pattern)
}

// Walk records the tree, then walks it.
func (f recordingFS) Walk(p string, fn filepath.WalkFunc) error {
	f.rec.Probe(rendercache.Tree, f.abs(p))
	return f.FileSystem.Walk(p, fn)
}

// ReadFile reads a file and records the content read.
func (f recordingFS) ReadFile(p string) ([]byte, error) {
	b, err := f.FileSystem.ReadFile(p)
	if err != nil {
		f.rec.Probe(rendercache.File, f.abs(p))
		return b, err
	}
	f.rec.File(f.abs(p), b)
	return b, nil
}
