package flux

import (
	"os"
	"path/filepath"
	"testing"

	fluxfs "github.com/fluxcd/pkg/kustomize/filesys"

	"github.com/strata-iac/strata/internal/testkit"
)

// TestResolvedFS checks that resolvedFS answers every path as Flux's
// secure file system does: files and directories inside the repository,
// symbolic links inside it and out of it, a directory that leads out, and
// paths that do not exist.
func TestResolvedFS(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	testkit.WriteFile(t, filepath.Join(root, "app", "a.yaml"), "a: 1\n")
	testkit.WriteFile(t, filepath.Join(outside, "secret.yaml"), "s: 1\n")
	links := map[string]string{
		"app/in.yaml":  filepath.Join(root, "app", "a.yaml"),
		"app/out.yaml": filepath.Join(outside, "secret.yaml"),
		"outdir":       outside,
		"indir":        filepath.Join(root, "app"),
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	secure, err := fluxfs.MakeFsOnDiskSecure(root)
	if err != nil {
		t.Fatal(err)
	}
	fast := newResolvedFS(secure, root)
	for _, rel := range []string{".", "app", "app/a.yaml", "app/in.yaml", "app/out.yaml", "outdir", "outdir/secret.yaml", "indir", "indir/a.yaml", "app/gone.yaml", "gone/a.yaml", "app/../outdir/secret.yaml"} {
		// Twice: the second answer comes from what the first kept.
		for range 2 {
			p := filepath.Join(root, filepath.FromSlash(rel))
			if got, want := fast.Exists(p), secure.Exists(p); got != want {
				t.Errorf("Exists(%s) = %v, want %v", rel, got, want)
			}
			if got, want := fast.IsDir(p), secure.IsDir(p); got != want {
				t.Errorf("IsDir(%s) = %v, want %v", rel, got, want)
			}
			got, gotErr := fast.ReadFile(p)
			want, wantErr := secure.ReadFile(p)
			if string(got) != string(want) || (gotErr == nil) != (wantErr == nil) {
				t.Errorf("ReadFile(%s) = %q, %v, want %q, %v", rel, got, gotErr, want, wantErr)
			}
		}
	}
}
