package realpath

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestEval: a Cache resolves every kind of path as filepath.EvalSymlinks
// does, the first time and from what it kept; a nil Cache too.
func TestEval(t *testing.T) {
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
		"via":            "real",          // a parent that is a link
		"real/to-other":  "../other/c",    // a last component that is a link
		"real/dangling":  "nowhere",       // a link to nothing
		"real/loop-a":    "loop-b",        // a loop
		"real/loop-b":    "loop-a",        //
		"real/abs-other": root + "/other", // an absolute link
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	paths := []string{
		"real", "real/a", "real/b", "via/a", "via/b", "via/file.yaml", "real/to-other", "via/to-other",
		"real/dangling", "real/loop-a", "real/abs-other", "via/abs-other", "via/abs-other/c", "real/absent", "absent/a",
	}
	var cache Cache
	var none *Cache
	for _, impl := range []struct {
		name string
		eval func(string) (string, error)
	}{{"Cache", cache.Eval}, {"Cache again", cache.Eval}, {"nil Cache", none.Eval}} {
		for _, rel := range append(paths, "/", ".", "..", "real/../via") {
			p := rel
			if !filepath.IsAbs(rel) && rel != "." && rel != ".." {
				p = filepath.Join(root, rel)
			}
			want, wantErr := filepath.EvalSymlinks(p)
			got, err := impl.eval(p)
			if got != want || (err == nil) != (wantErr == nil) || errors.Is(err, fs.ErrNotExist) != errors.Is(wantErr, fs.ErrNotExist) {
				t.Errorf("%s: Eval(%q) = %q, %v, want %q, %v (filepath.EvalSymlinks)", impl.name, rel, got, err, want, wantErr)
			}
		}
	}
}
