package flux

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Directory names that mark a repository root when dir is not in a git
// work tree: the parent of environments/ (the seed layout) or of clusters/
// (a Flux bootstrap).
var layoutDirs = []string{"environments", "clusters"}

// findRoot returns the repository root of the entry directory dir
// (absolute), dir relative to it (slash-separated), and a note when the
// root had to be guessed.
//
// The root is the root of the git work tree holding dir: the nearest
// ancestor with a .git entry (a directory, or the file of a linked work
// tree), as a GitRepository source is the whole repository. Outside git,
// it is the parent of the nearest ancestor named environments or
// clusters, else dir itself; the note says which.
func findRoot(dir string) (root, rel, note string, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", "", err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", "", "", err
	}
	if !fi.IsDir() {
		return "", "", "", fmt.Errorf("%s is not a directory: name the directory of the environment (for example environments/<client>/<env> or clusters/<name>)", dir)
	}
	root, err = gitRoot(abs)
	if err != nil {
		return "", "", "", err
	}
	if root == "" {
		root = layoutRoot(abs)
		note = fmt.Sprintf("not in a git work tree: the repository root is taken to be %s", root)
	}
	r, err := filepath.Rel(root, abs)
	if err != nil {
		return "", "", "", err
	}
	return root, filepath.ToSlash(r), note, nil
}

// gitRoot returns the nearest ancestor of abs (itself included) that holds
// a .git entry, or "".
func gitRoot(abs string) (string, error) {
	for p := abs; ; p = filepath.Dir(p) {
		_, err := os.Lstat(filepath.Join(p, ".git"))
		if err == nil {
			return p, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if filepath.Dir(p) == p {
			return "", nil
		}
	}
}

// layoutRoot returns the parent of the nearest ancestor of abs named
// environments or clusters, or abs itself.
func layoutRoot(abs string) string {
	for p := abs; filepath.Dir(p) != p; p = filepath.Dir(p) {
		for _, d := range layoutDirs {
			if filepath.Base(p) == d && !strings.EqualFold(p, abs) {
				return filepath.Dir(p)
			}
		}
	}
	return abs
}
