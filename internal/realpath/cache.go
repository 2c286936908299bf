package realpath

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// Cache resolves paths as filepath.EvalSymlinks does, keeping what it
// resolved. It is safe for concurrent use; the zero Cache is ready, and a
// nil one resolves every path anew.
type Cache struct {
	m sync.Map // clean path → result
}

type result struct {
	path string
	err  error
}

// Eval is filepath.EvalSymlinks(path). A path that is no symbolic link
// resolves as its parent does, with its name; anything else (a symbolic
// link, a path that cannot be lstat'd, ".", "..", the root) as
// EvalSymlinks resolves it.
func (c *Cache) Eval(path string) (string, error) {
	path = filepath.Clean(path)
	if c == nil {
		return filepath.EvalSymlinks(path)
	}
	if v, ok := c.m.Load(path); ok {
		r := v.(result)
		return r.path, r.err
	}
	var r result
	parent, base := filepath.Dir(path), filepath.Base(path)
	fi, err := os.Lstat(path)
	if err == nil && fi.Mode()&fs.ModeSymlink == 0 && parent != path && base != "." && base != ".." {
		if r.path, r.err = c.Eval(parent); r.err == nil {
			r.path = filepath.Join(r.path, base)
		}
	} else {
		r.path, r.err = filepath.EvalSymlinks(path)
	}
	c.m.Store(path, r)
	return r.path, r.err
}
