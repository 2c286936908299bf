package statedir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	securejoin "github.com/cyphar/filepath-securejoin"
)

// Joiner is Join, keeping the secure resolution of each directory it
// joined a name under, and of each directory above it: the thousands of
// stacks of one reconcile have their workspaces and state files in a few
// directories and one directory a stack, and a secure join takes an
// lstat for every component of every path. A Joiner is meant
// for one reconcile: it never sees a directory change after it resolved
// it. The zero Joiner is ready; a nil one joins every path anew.
type Joiner struct {
	mu   sync.Mutex
	dirs map[string]string
}

// Join is Join(root, elems...): the same checks and the same path. When
// the last element is a symbolic link it is joined anew, as Join would
// resolve it from root.
func (j *Joiner) Join(root string, elems ...string) (string, error) {
	if j == nil || len(elems) < 2 {
		return Join(root, elems...)
	}
	if err := checkNames(root, elems); err != nil {
		return "", err
	}
	dir, err := j.dir(root, elems[:len(elems)-1])
	if err != nil {
		return Join(root, elems...)
	}
	p := filepath.Join(dir, elems[len(elems)-1])
	fi, err := os.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return p, nil
	case err != nil || fi.Mode()&fs.ModeSymlink != 0:
		return Join(root, elems...)
	}
	return p, nil
}

// dir returns where the directory elems leads under root, as
// securejoin.SecureJoin resolves it: its parent's resolution (kept, or
// resolved the same way) and its name, when that is no symbolic link;
// otherwise SecureJoin's answer for the whole path. It keeps what it
// resolved of a directory that exists.
func (j *Joiner) dir(root string, elems []string) (string, error) {
	key := root + "\x00" + strings.Join(elems, "\x00")
	j.mu.Lock()
	dir, ok := j.dirs[key]
	j.mu.Unlock()
	if ok {
		return dir, nil
	}
	parent := root
	if len(elems) > 1 {
		var err error
		if parent, err = j.dir(root, elems[:len(elems)-1]); err != nil {
			return "", err
		}
	}
	dir = filepath.Join(parent, elems[len(elems)-1])
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// Nothing below it exists either: SecureJoin joins the
		// rest as it is. Not kept: it may yet be made.
		return dir, nil
	case err != nil || fi.Mode()&fs.ModeSymlink != 0:
		if dir, err = securejoin.SecureJoin(root, filepath.Join(elems...)); err != nil {
			return "", err
		}
	}
	j.mu.Lock()
	if j.dirs == nil {
		j.dirs = map[string]string{}
	}
	j.dirs[key] = dir
	j.mu.Unlock()
	return dir, nil
}
