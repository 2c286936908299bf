package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// publish fills a temporary file beside name, syncs it, and puts it in
// place with place (a rename or a link), then syncs the directory.
func publish(root *os.Root, name string, perm os.FileMode, fill func(*os.File) error, place func(oldname, newname string) error) error {
	tmp, tmpName, err := createTemp(root, name)
	if err != nil {
		return err
	}
	defer func() {
		tmp.Close()
		root.Remove(tmpName) // gone already after a rename
	}()
	if err := fill(tmp); err != nil {
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := place(tmpName, name); err != nil {
		return err
	}
	syncDir(root, filepath.Dir(name))
	return nil
}

// createTemp creates a new file beside name, readable by the owner only,
// and returns it with its name in the root.
func createTemp(root *os.Root, name string) (*os.File, string, error) {
	dir, base := filepath.Split(name)
	for range 10 {
		var b [8]byte
		rand.Read(b[:])
		tmpName := filepath.Join(dir, "."+base+".tmp-"+hex.EncodeToString(b[:]))
		f, err := root.OpenFile(tmpName, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, tmpName, err
	}
	return nil, "", fmt.Errorf("create a temporary file for %s: names taken", name)
}

// syncDir makes a new directory entry durable, best effort.
func syncDir(root *os.Root, dir string) {
	if d, err := root.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
