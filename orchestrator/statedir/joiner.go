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
// joined a last name under: the thousands of stacks of one reconcile have
// their workspaces and state files in a few directories, and a secure
// join takes an lstat for every component of every path. A Joiner is meant
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
	key := root + "\x00" + strings.Join(elems[:len(elems)-1], "\x00")
	j.mu.Lock()
	dir, ok := j.dirs[key]
	j.mu.Unlock()
	if !ok {
		var err error
		if dir, err = securejoin.SecureJoin(root, filepath.Join(elems[:len(elems)-1]...)); err != nil {
			return Join(root, elems...)
		}
		j.mu.Lock()
		if j.dirs == nil {
			j.dirs = map[string]string{}
		}
		j.dirs[key] = dir
		j.mu.Unlock()
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
