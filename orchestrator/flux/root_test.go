package flux

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFindRoot(t *testing.T) {
	tmp := t.TempDir()
	for _, d := range []string{
		"git/.git", "git/clusters/dev", "git/environments/acme/dev/apps",
		"linked/clusters/dev", "plain/environments/acme/dev", "plain/clusters/dev", "plain/infra/dev",
	} {
		if err := os.MkdirAll(filepath.Join(tmp, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A linked work tree has a .git file.
	if err := os.WriteFile(filepath.Join(tmp, "linked/.git"), []byte("gitdir: /elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		dir      string
		root     string
		rel      string
		wantNote bool
	}{
		{dir: "git/clusters/dev", root: "git", rel: "clusters/dev"},
		{dir: "git/environments/acme/dev", root: "git", rel: "environments/acme/dev"},
		{dir: "git/environments/acme/dev/apps", root: "git", rel: "environments/acme/dev/apps"},
		{dir: "git", root: "git", rel: "."},
		{dir: "linked/clusters/dev", root: "linked", rel: "clusters/dev"},
		{dir: "plain/environments/acme/dev", root: "plain", rel: "environments/acme/dev", wantNote: true},
		{dir: "plain/clusters/dev", root: "plain", rel: "clusters/dev", wantNote: true},
		{dir: "plain/infra/dev", root: "plain/infra/dev", rel: ".", wantNote: true},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			root, rel, note, err := findRoot(filepath.Join(tmp, tt.dir))
			want := filepath.Join(tmp, tt.root)
			if err != nil || root != want || rel != tt.rel || (note != "") != tt.wantNote {
				t.Errorf("findRoot(%q) = %q, %q, %q, %v, want %q, %q, a note %v", tt.dir, root, rel, note, err, want, tt.rel, tt.wantNote)
			}
		})
	}
}

func TestDefaultNames(t *testing.T) {
	tests := []struct{ dir, client, name string }{
		{"environments/acme/dev", "acme", "dev"},
		{"clusters/dev", "repo", "dev"},
		{"dev", "repo", "dev"},
		{".", "repo", "."},
		{"environments/acme/dev/apps", "dev", "apps"},
	}
	for _, tt := range tests {
		if c, n := defaultNames("/x/repo", tt.dir); c != tt.client || n != tt.name {
			t.Errorf("defaultNames(%q) = %q, %q, want %q, %q", tt.dir, c, n, tt.client, tt.name)
		}
	}
}
