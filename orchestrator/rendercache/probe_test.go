package rendercache

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestRealDirs: realDirs resolves every kind of path as
// filepath.EvalSymlinks does, with each parent resolved once, twice over
// (the second time from what it kept).
func TestRealDirs(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"real/a", "real/b", "other/c"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "real", "file.yaml"), []byte("a: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"via":            "real",       // a parent that is a link
		"real/to-other":  "../other/c", // a last component that is a link
		"real/dangling":  "nowhere",    // a link to nothing
		"real/loop-a":    "loop-b",     // a loop
		"real/loop-b":    "loop-a",
		"real/abs-other": root + "/other", // an absolute link
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	paths := []string{
		"real", "real/a", "real/b", "via/a", "via/b", "via/file.yaml", "real/to-other", "via/to-other",
		"real/dangling", "real/loop-a", "real/abs-other", "via/abs-other", "real/absent", "absent/a",
	}
	dirs := &realDirs{m: map[string]realDir{}}
	for pass := range 2 {
		for _, rel := range paths {
			p := filepath.Join(root, rel)
			want, wantErr := filepath.EvalSymlinks(p)
			got, err := dirs.eval(p)
			if got != want || (err == nil) != (wantErr == nil) || errors.Is(err, fs.ErrNotExist) != errors.Is(wantErr, fs.ErrNotExist) {
				t.Errorf("pass %d: realDirs.eval(%q) = %q, %v, want %q, %v (filepath.EvalSymlinks)", pass, rel, got, err, want, wantErr)
			}
		}
	}
	if got, want := len(dirs.m), 3; got < want {
		t.Errorf("realDirs kept %d parents, want at least %d (root, real, via)", got, want)
	}
}
