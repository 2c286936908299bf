package storage_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/registry-mirror/storage"
)

// TestDirStorageStaysInside checks that no key reaches outside the
// directory, not even through a symbolic link inside it, and that what
// is not a regular file is not there to readers.
func TestDirStorageStaysInside(t *testing.T) {
	ctx := context.Background()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	st := storage.NewDir(dir)
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	noCheck := func(*os.File) error { return nil }

	if _, err := st.Open(ctx, "out/secret"); err == nil {
		t.Errorf("open(out/secret) through a link out = nil error, want refused")
	}
	if _, err := st.Open(ctx, "../"+filepath.Base(outside)+"/secret"); err == nil {
		t.Errorf("open(../…/secret) = nil error, want refused")
	}
	for _, key := range []string{"link", "sub"} {
		if _, err := st.Open(ctx, key); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("open(%q) = %v, want fs.ErrNotExist: only regular files are served", key, err)
		}
		if _, err := st.Stat(ctx, key); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("stat(%q) = %v, want fs.ErrNotExist", key, err)
		}
	}
	if files, err := st.List(ctx, "out"); err == nil {
		t.Errorf("list(out) = %v, nil, want refused", files)
	}
	if files, err := st.List(ctx, ""); err != nil || len(files) != 0 {
		t.Errorf("list() = %v, %v, want no regular files", files, err)
	}
	if err := st.Create(ctx, "out/new", strings.NewReader("x"), noCheck); err == nil {
		t.Errorf("create(out/new) = nil, want refused")
	}
	if err := st.Replace(ctx, "out/new", []byte("x")); err == nil {
		t.Errorf("replace(out/new) = nil, want refused")
	}
	if _, err := os.Stat(filepath.Join(outside, "new")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat(outside/new) = %v, want nothing written outside", err)
	}
}

// TestDirStorageModes checks that files are 0644, directories 0755 and
// no temporary file is left.
func TestDirStorageModes(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "store")
	st := storage.NewDir(dir)
	if err := st.Create(ctx, "a/b/c", strings.NewReader("x"), func(*os.File) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if err := st.Replace(ctx, "a/b/c.hashes", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	want := map[string]fs.FileMode{
		".": fs.ModeDir | 0o755, "a": fs.ModeDir | 0o755, "a/b": fs.ModeDir | 0o755,
		"a/b/c": 0o644, "a/b/c.hashes": 0o644,
	}
	got := map[string]fs.FileMode{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		info, err := d.Info()
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		got[filepath.ToSlash(rel)] = info.Mode()
		return nil
	})
	for name, mode := range want {
		if got[name] != mode {
			t.Errorf("mode of %s = %v, want %v", name, got[name], mode)
		}
	}
	if len(got) != len(want) {
		t.Errorf("files = %v, want only %v", got, want)
	}
	if got, want := st.Location("a/b/c"), filepath.Join(dir, "a", "b", "c"); got != want {
		t.Errorf("location(a/b/c) = %q, want %q", got, want)
	}
}
