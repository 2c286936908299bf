package runner

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/strata-iac/strata/internal/tofufiles"
	"github.com/strata-iac/strata/orchestrator/source"
)

// copyStack lays the stack's code into the workspace dst, and fails when
// the result has no module file (.tf, .tf.json, .tofu or .tofu.json): a
// stack without code would plan the destruction of everything it manages.
func copyStack(a source.Artifact, dst string) error {
	root := a.Root
	if root == "" {
		root = a.Dir
	}
	if err := copyTree(a.Dir, dst, root, a.Skip); err != nil {
		return err
	}
	ok, err := hasTofuFiles(dst)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%s holds no .tf, .tf.json, .tofu or .tofu.json files, so there is nothing to plan: put the stack's code there or fix spec.path", a.Dir)
	}
	return nil
}

// copyTree copies src into dst, leaving out any .terraform directory and
// what skip (when set) says is not part of it.
// Symlinks are followed, as Flux's source archives keep them, as long as
// they resolve inside root (the repository, or the artefact); a link that
// leaves root, dangles or makes a loop is an error that names it.
func copyTree(src, dst, root string, skip func(path string, isDir bool) bool) error {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	realSrc, err := filepath.EvalSymlinks(src)
	if err != nil {
		return err
	}
	c := treeCopy{root: realRoot, seen: map[string]bool{}, top: src, skip: skip}
	shown, err := filepath.Rel(realRoot, realSrc)
	if err != nil || !inside(shown) {
		shown = src
	}
	return c.dir(realSrc, dst, shown, "")
}

// treeCopy copies one tree; seen holds the real directories being copied,
// from the top down, to catch links that loop.
type treeCopy struct {
	root string
	seen map[string]bool
	// skip is asked of each path as it lies under top, the directory
	// copied as its caller named it (links not resolved).
	top  string
	skip func(path string, isDir bool) bool
}

// dir copies src, which lies at rel under c.top, into dst.
func (c *treeCopy) dir(src, dst, shown, rel string) error {
	if c.seen[src] {
		return fmt.Errorf("symlink %s makes a loop: it points to a directory that contains it", shown)
	}
	c.seen[src] = true
	defer delete(c.seen, src)
	if err := os.MkdirAll(dst, 0o700); err != nil {
		return err
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range entries {
		path, target := filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())
		name := filepath.Join(shown, e.Name())
		mode := e.Type()
		under := filepath.Join(rel, e.Name())
		if c.skip != nil && c.skip(filepath.Join(c.top, under), mode.IsDir()) {
			continue
		}
		if mode&fs.ModeSymlink != 0 {
			if path, err = c.follow(path, name); err != nil {
				return err
			}
			fi, err := os.Stat(path)
			if err != nil {
				return err
			}
			mode = fi.Mode().Type()
		}
		switch {
		case mode.IsDir() && e.Name() == ".terraform":
			continue
		case mode.IsDir():
			if err := c.dir(path, target, name, under); err != nil {
				return err
			}
		case mode.IsRegular():
			if err := copyFile(path, target); err != nil {
				return err
			}
		}
		// Devices, sockets and pipes are not part of a stack.
	}
	return nil
}

// follow resolves the symlink at path (shown to the user as name) and
// checks that it stays inside the root.
func (c *treeCopy) follow(path, name string) (string, error) {
	resolved, err := filepath.EvalSymlinks(path)
	if err != nil {
		link, _ := os.Readlink(path)
		return "", fmt.Errorf("symlink %s points to %s, which does not exist: fix or remove the link", name, link)
	}
	rel, err := filepath.Rel(c.root, resolved)
	if err != nil || !inside(rel) {
		return "", fmt.Errorf("symlink %s points to %s, outside %s: a stack may only link to files of its own source; copy the file in instead", name, resolved, c.root)
	}
	return resolved, nil
}

// inside reports whether a relative path stays below its base.
func inside(rel string) bool {
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// hasTofuFiles reports whether dir holds a root module: a file tofu reads
// module code from (.tf, .tf.json, .tofu or .tofu.json).
func hasTofuFiles(dir string) (bool, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, err
	}
	for _, e := range entries {
		if e.Type().IsRegular() && tofufiles.IsRootCode(e.Name()) {
			return true, nil
		}
	}
	return false, nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
