package flux

import (
	"os"
	"path/filepath"
	"strings"

	fluxfs "github.com/fluxcd/pkg/kustomize/filesys"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/strata-iac/strata/internal/realpath"
)

// resolvedFS is Flux's secure file system (fluxfs.MakeFsOnDiskSecure),
// which refuses any path that leads out of the repository through a
// symbolic link, with the check kept per directory. The secure file
// system resolves every component of every path it is given (a dozen
// system calls a read); for a path that is no symbolic link itself, that
// is its directory's resolution and its name, so resolvedFS resolves
// each directory once. A path it cannot answer for (a symbolic link, one
// that does not exist, one whose directory leads out) goes to the secure
// file system, which says what it says. It keeps its answers for one load
// (a loader's builds share it): a directory turned into a symbolic link
// while the load runs is not seen, as the secure file system does not see
// one turned between its check and its read.
type resolvedFS struct {
	filesys.FileSystem
	// root is the repository's root, its symbolic links resolved.
	root string
	// dirs holds, by directory, where it resolves.
	dirs *realpath.Cache
	// ahead holds what the load read ahead (nil: nothing).
	ahead *readAhead
}

// newResolvedFS wraps secure, the secure file system of root.
func newResolvedFS(secure filesys.FileSystem, root string) filesys.FileSystem {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return secure
	}
	return resolvedFS{FileSystem: secure, root: real, dirs: &realpath.Cache{}}
}

// inside reports whether a resolved path is root or under it.
func (f resolvedFS) inside(p string) bool {
	return p == f.root || strings.HasPrefix(p, f.root+string(filepath.Separator))
}

// known returns what p is, when the secure file system would let it be
// read as it is: it exists, it is no symbolic link, and its directory
// resolves inside the root.
func (f resolvedFS) known(p string) (os.FileInfo, bool) {
	if !filepath.IsAbs(p) {
		return nil, false
	}
	fi, err := os.Lstat(p)
	if err != nil || !f.knownAs(p, fi) {
		return nil, false
	}
	return fi, true
}

// knownAs is known of a path whose lstat found fi.
func (f resolvedFS) knownAs(p string, fi os.FileInfo) bool {
	if fi.Mode()&os.ModeSymlink != 0 {
		return false
	}
	return f.knownDir(p)
}

// knownDir reports whether the secure file system would let p be read
// as it is, if p is no symbolic link itself: it is absolute, and it is
// the root or its directory resolves inside the root.
func (f resolvedFS) knownDir(p string) bool {
	if !filepath.IsAbs(p) {
		return false
	}
	p = filepath.Clean(p)
	if p == f.root {
		return true
	}
	real := f.resolve(filepath.Dir(p))
	return real != "" && f.inside(real)
}

// resolve returns where a directory leads, its symbolic links resolved,
// or "" when it cannot be resolved: one lstat for each directory not
// resolved before, where filepath.EvalSymlinks takes one for each
// component of the path (realpath.Cache).
func (f resolvedFS) resolve(dir string) string {
	real, err := f.dirs.Eval(dir)
	if err != nil {
		return ""
	}
	return real
}

// ReadFile reads a file the secure file system would read. A regular
// file that is no symbolic link, in a directory known, is read without
// a stat first: the open refuses a symbolic link (regularfile.ReadFileNoFollow).
// Anything else is the secure file system's to read or refuse.
func (f resolvedFS) ReadFile(p string) ([]byte, error) {
	if f.knownDir(p) {
		if b, err := f.ahead.readNoFollow(p, 0); err == nil {
			return b, nil
		}
	}
	return f.FileSystem.ReadFile(p)
}

// Exists reports whether a path exists, as the secure file system does.
func (f resolvedFS) Exists(p string) bool {
	if _, ok := f.known(p); ok {
		return true
	}
	return f.FileSystem.Exists(p)
}

// IsDir reports whether a path is a directory, as the secure file system
// does.
func (f resolvedFS) IsDir(p string) bool {
	if fi, ok := f.known(p); ok {
		return fi.IsDir()
	}
	return f.FileSystem.IsDir(p)
}

// diskFS is the repository as kustomize builds read it: Flux's secure file
// system of the root, made once per load, with its checks kept per
// directory (resolvedFS).
func (l *loader) diskFS() (filesys.FileSystem, error) {
	if l.disk == nil {
		secure, err := fluxfs.MakeFsOnDiskSecure(l.root)
		if err != nil {
			return nil, err
		}
		l.disk = newResolvedFS(secure, l.root)
	}
	return l.disk, nil
}
