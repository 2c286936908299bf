package runner

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/source"
)

// TestCopyStackSymlinks: links inside the repository are followed (a
// main.tf that is a link used to be dropped, and the stack planned with no
// code); links that leave it, dangle or loop are errors naming the link; a
// stack with no module file (.tf, .tf.json, .tofu, .tofu.json) is an
// error, never a plan.
func TestCopyStackSymlinks(t *testing.T) {
	type link struct{ name, target string }
	tests := []struct {
		name    string
		files   []string
		links   []link
		want    []string
		wantErr string
	}{
		{
			name:  "a main.tf linked to a file in the repository is copied",
			files: []string{"shared/main.tf"},
			links: []link{{"stack/main.tf", "../shared/main.tf"}},
			want:  []string{"main.tf"},
		},
		{
			name:  "a linked module directory is copied",
			files: []string{"stack/main.tf", "modules/m/main.tf", "modules/m/vars.tf"},
			links: []link{{"stack/m", "../modules/m"}},
			want:  []string{"m/main.tf", "m/vars.tf", "main.tf"},
		},
		{
			name:  "an absolute link inside the repository is copied",
			files: []string{"shared/main.tf"},
			links: []link{{"stack/main.tf", "ROOT/shared/main.tf"}},
			want:  []string{"main.tf"},
		},
		{
			name:    "a link that leaves the repository is an error naming it",
			files:   []string{"stack/main.tf"},
			links:   []link{{"stack/secrets.tf", "OUTSIDE/secrets.tf"}},
			wantErr: "symlink " + filepath.Join("stack", "secrets.tf") + " points to",
		},
		{
			name:    "a dangling link is an error naming it",
			files:   []string{"stack/main.tf"},
			links:   []link{{"stack/gone.tf", "nowhere.tf"}},
			wantErr: "symlink " + filepath.Join("stack", "gone.tf") + " points to nowhere.tf, which does not exist",
		},
		{
			name:    "a link to its own parent is a loop",
			files:   []string{"stack/main.tf"},
			links:   []link{{"stack/self", "."}},
			wantErr: "makes a loop",
		},
		{
			name:    "a stack with no .tf file is an error",
			files:   []string{"stack/README.md", "stack/.hidden.tofu", "stack/main.tf~"},
			wantErr: "holds no .tf, .tf.json, .tofu or .tofu.json files",
		},
		{
			name:  "a stack of .tofu files is copied",
			files: []string{"stack/main.tofu", "stack/modules/m/main.tofu"},
			want:  []string{"main.tofu", "modules/m/main.tofu"},
		},
		{
			name:  "a stack of .tofu.json files is copied",
			files: []string{"stack/main.tofu.json"},
			want:  []string{"main.tofu.json"},
		},
		{
			name:  "a stack of .tf.json files is copied",
			files: []string{"stack/main.tf.json"},
			want:  []string{"main.tf.json"},
		},
		{
			name:    "a stack whose only .tf file is a link that leaves is an error",
			links:   []link{{"stack/main.tf", "OUTSIDE/secrets.tf"}},
			wantErr: "outside",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, outside, ws := t.TempDir(), t.TempDir(), t.TempDir()
			os.WriteFile(filepath.Join(outside, "secrets.tf"), []byte("# outside"), 0o644)
			os.MkdirAll(filepath.Join(root, "stack"), 0o755)
			for _, f := range tt.files {
				p := filepath.Join(root, f)
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, l := range tt.links {
				target := strings.NewReplacer("ROOT", root, "OUTSIDE", outside).Replace(l.target)
				if err := os.Symlink(target, filepath.Join(root, l.name)); err != nil {
					t.Fatal(err)
				}
			}
			a := source.Artifact{Dir: filepath.Join(root, "stack"), Root: root}
			err := copyStack(a, ws)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("copyStack(%q) = %v, want error containing %q", a.Dir, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("copyStack(%q) = %v", a.Dir, err)
			}
			if diff := cmp.Diff(tt.want, files(t, ws)); diff != "" {
				t.Errorf("copyStack(%q) workspace files (-want +got):\n%s", a.Dir, diff)
			}
			for _, f := range tt.want {
				fi, err := os.Lstat(filepath.Join(ws, f))
				if err != nil || !fi.Mode().IsRegular() {
					t.Errorf("copyStack(%q): %s is %v, %v, want a regular file", a.Dir, f, fi, err)
				}
			}
		})
	}
}

// files lists the regular files under dir, relative and sorted.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var got []string
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(got)
	return got
}

// TestCopyStackSkips: the paths the artifact says to skip (for code in the
// checkout, what Flux leaves out of its artifact) are not laid out, files
// and whole directories alike, asked as the artifact names them.
func TestCopyStackSkips(t *testing.T) {
	src, ws := t.TempDir(), t.TempDir()
	for _, f := range []string{"main.tf", "local.auto.tfvars", "scratch/plan.out", "modules/m/main.tf"} {
		testkit.WriteFile(t, filepath.Join(src, filepath.FromSlash(f)), f)
	}
	// The stack's directory is named through a link, as a checkout under
	// a linked home is: skip is asked of paths as the artifact names them.
	dir := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(src, dir); err != nil {
		t.Fatal(err)
	}
	skip := func(p string, isDir bool) bool {
		return p == filepath.Join(dir, "local.auto.tfvars") || (isDir && p == filepath.Join(dir, "scratch"))
	}
	if err := copyStack(source.Artifact{Dir: dir, Skip: skip}, ws); err != nil {
		t.Fatalf("copyStack(%q) = %v", src, err)
	}
	var got []string
	err := filepath.WalkDir(ws, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(ws, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if diff := cmp.Diff([]string{"main.tf", "modules/m/main.tf"}, got); diff != "" {
		t.Errorf("copyStack(%q) laid out (-want +got):\n%s", src, diff)
	}
}
