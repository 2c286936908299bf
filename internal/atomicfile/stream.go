package atomicfile

import (
	"io"
	"os"
	"path/filepath"
)

// Stream writes what fill writes to path with the given permissions,
// replacing the file there, and creating the parent directories (0700)
// when they are missing: Write for data too large to hold in memory
// first. An error from fill leaves the file there unchanged.
func Stream(path string, perm os.FileMode, fill func(io.Writer) error) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	return publish(root, filepath.Base(path), perm, func(f *os.File) error { return fill(f) }, root.Rename)
}
