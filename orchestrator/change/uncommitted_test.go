package change

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/testkit"
)

// TestUncommittedIn lists what a work tree has that its commit does not:
// a change, a new file, a deletion, and not a file git ignores.
func TestUncommittedIn(t *testing.T) {
	write := func(t *testing.T, root, name, body string) {
		t.Helper()
		testkit.WriteFile(t, filepath.Join(root, filepath.FromSlash(name)), body)
	}
	for _, tc := range []struct {
		name   string
		git    bool
		change func(t *testing.T, root string)
		want   []string
	}{
		{"clean", true, func(*testing.T, string) {}, nil},
		{"not a git work tree", false, func(*testing.T, string) {}, nil},
		{"changed, new, removed and ignored files", true, func(t *testing.T, root string) {
			write(t, root, "apps/a.yaml", "a: 2\n")
			write(t, root, "apps/new/b.yaml", "b: 1\n")
			write(t, root, "local.tfvars", "x = 1\n")
			if err := os.Remove(filepath.Join(root, "apps/gone.yaml")); err != nil {
				t.Fatal(err)
			}
		}, []string{" M apps/a.yaml", " D apps/gone.yaml", "?? apps/new/b.yaml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, "apps/a.yaml", "a: 1\n")
			write(t, root, "apps/gone.yaml", "g: 1\n")
			write(t, root, ".gitignore", "*.tfvars\n")
			var commit string
			if tc.git {
				gitIn(t, root, "init", "--quiet")
				gitIn(t, root, "add", "-A")
				gitIn(t, root, "commit", "--quiet", "-m", "base")
				commit = strings.TrimSpace(gitIn(t, root, "rev-parse", "HEAD"))
			}
			tc.change(t, root)
			got, err := UncommittedIn(context.Background(), filepath.Join(root, "apps"))
			if err != nil {
				t.Fatalf("UncommittedIn(%q) = %v", root, err)
			}
			if tc.want == nil {
				if got != nil {
					t.Errorf("UncommittedIn(%q) = %+v, want nil", root, got)
				}
				return
			}
			want := &Uncommitted{Commit: commit, Files: tc.want}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("UncommittedIn(%q) (-want +got):\n%s", root, diff)
			}
		})
	}
}
