package atomicfile

import (
	"os"
	"path/filepath"
)

// Write writes data to path with the given permissions, replacing the
// file there, and creating the parent directories (0700) when they are
// missing.
func Write(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	return WriteIn(root, filepath.Base(path), data, perm)
}

// WriteIn writes data to name inside root with the given permissions,
// replacing the file there. The directory of name must exist.
func WriteIn(root *os.Root, name string, data []byte, perm os.FileMode) error {
	fill := func(f *os.File) error {
		_, err := f.Write(data)
		return err
	}
	return publish(root, name, perm, fill, root.Rename)
}
