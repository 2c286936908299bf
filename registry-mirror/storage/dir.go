package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/strata-iac/strata/internal/atomicfile"
)

// dirStorage keeps files in a directory, made by the first write. Every
// access goes through an os.Root of the directory, so no key leaves it,
// even through a symbolic link. Files are 0644 and directories 0755:
// provider and module packages are not secret.
type dirStorage struct {
	dir string
}

var _ Storage = dirStorage{}

// NewDir returns the storage in dir, which is made by the first write.
func NewDir(dir string) Storage { return dirStorage{dir: dir} }

// root opens the directory as a root. ok is false when it does not exist
// yet, which is an empty storage to readers.
func (d dirStorage) root() (root *os.Root, ok bool, err error) {
	root, err = os.OpenRoot(d.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return root, true, nil
}

// lstat returns the info of the regular file at key; anything else there
// (a directory, a symbolic link) is fs.ErrNotExist.
func lstat(root *os.Root, key string) (FileInfo, error) {
	info, err := root.Lstat(filepath.FromSlash(key))
	if err != nil {
		return FileInfo{}, err
	}
	if !info.Mode().IsRegular() {
		return FileInfo{}, &fs.PathError{Op: "open", Path: key, Err: fs.ErrNotExist}
	}
	return FileInfo{Name: info.Name(), Size: info.Size(), ModTime: info.ModTime()}, nil
}

func (d dirStorage) Stat(ctx context.Context, key string) (FileInfo, error) {
	if err := ctx.Err(); err != nil {
		return FileInfo{}, err
	}
	root, ok, err := d.root()
	if err != nil {
		return FileInfo{}, err
	}
	if !ok {
		return FileInfo{}, &fs.PathError{Op: "stat", Path: d.Location(key), Err: fs.ErrNotExist}
	}
	defer root.Close()
	return lstat(root, key)
}

func (d dirStorage) Open(ctx context.Context, key string) (Object, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	root, ok, err := d.root()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: d.Location(key), Err: fs.ErrNotExist}
	}
	defer root.Close()
	// Only a regular file is served, as list only lists those.
	if _, err := lstat(root, key); err != nil {
		return nil, err
	}
	f, err := root.Open(filepath.FromSlash(key))
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return dirObject{File: f, fi: FileInfo{Name: info.Name(), Size: info.Size(), ModTime: info.ModTime()}}, nil
}

// dirObject is an open file of a dirStorage.
type dirObject struct {
	*os.File
	fi FileInfo
}

func (o dirObject) Info() FileInfo { return o.fi }

// LocalFile returns the open file under an Object of a directory storage,
// for readers that need an *os.File, such as hashing in place; false for
// an Object of any other storage.
func LocalFile(o Object) (*os.File, bool) {
	d, ok := o.(dirObject)
	if !ok {
		return nil, false
	}
	return d.File, true
}

func (d dirStorage) List(ctx context.Context, dir string) ([]FileInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	root, ok, err := d.root()
	if err != nil || !ok {
		return nil, err
	}
	defer root.Close()
	f, err := root.Open(filepath.FromSlash(path.Clean("./" + dir)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	var out []FileInfo
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed since ReadDir
		}
		if err != nil {
			return nil, err
		}
		out = append(out, FileInfo{Name: e.Name(), Size: info.Size(), ModTime: info.ModTime()})
	}
	slices.SortFunc(out, func(a, b FileInfo) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// create writes to a temporary file beside key, whose name starts with a
// dot so that no index lists it, then hard-links it into place: a link
// creates the name only if it is free, so two writers of one key cannot
// replace each other.
func (d dirStorage) Create(ctx context.Context, key string, r io.Reader, check func(*os.File) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	root, err := d.mkroot(path.Dir(key))
	if err != nil {
		return err
	}
	defer root.Close()
	return atomicfile.CreateIn(root, filepath.FromSlash(key), 0o644, func(tmp *os.File) error {
		if err := Spool(ctx, tmp, r); err != nil {
			return err
		}
		return check(tmp)
	})
}

// replace writes a temporary file beside key and renames it into place.
func (d dirStorage) Replace(ctx context.Context, key string, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	root, err := d.mkroot(path.Dir(key))
	if err != nil {
		return err
	}
	defer root.Close()
	return atomicfile.WriteIn(root, filepath.FromSlash(key), data, 0o644)
}

// mkroot makes the storage's directory and dir inside it, and opens the
// root.
func (d dirStorage) mkroot(dir string) (*os.Root, error) {
	if err := os.MkdirAll(d.dir, 0o755); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(d.dir)
	if err != nil {
		return nil, err
	}
	if err := root.MkdirAll(filepath.FromSlash(dir), 0o755); err != nil {
		root.Close()
		return nil, err
	}
	return root, nil
}

// check succeeds when the directory is a directory, or does not exist yet.
func (d dirStorage) Check(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	info, err := os.Stat(d.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return fmt.Errorf("%s is not a directory", d.dir)
	}
	return nil
}

func (d dirStorage) Location(key string) string {
	if key == "" {
		return d.dir
	}
	return filepath.Join(d.dir, filepath.FromSlash(key))
}
