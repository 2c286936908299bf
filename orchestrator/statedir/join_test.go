package statedir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestJoin(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	// A symlink under the state directory that points out of it.
	if err := os.MkdirAll(filepath.Join(root, Work, "acme"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, Work, "acme", "dev")); err != nil {
		t.Fatal(err)
	}
	// A last name that is a symlink out of it.
	if err := os.MkdirAll(filepath.Join(root, Work, "beta", "dev"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, Work, "beta", "dev", "linked")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		elems   []string
		want    string
		wantErr string
	}{
		{"workspace", []string{Work, "beta", "dev", "net"}, filepath.Join(root, Work, "beta", "dev", "net"), ""},
		{"state file", []string{State, "acme", "dev", "net.tfstate"}, filepath.Join(root, State, "acme", "dev", "net.tfstate"), ""},
		{"a symlink out is kept in", []string{Work, "acme", "dev", "net"}, filepath.Join(root, outside, "net"), ""},
		{"below a symlink out, kept in", []string{Work, "acme", "dev", "net", ".terraform", "terraform.tfstate"}, filepath.Join(root, outside, "net", ".terraform", "terraform.tfstate"), ""},
		{"a last name that links out is kept in", []string{Work, "beta", "dev", "linked"}, filepath.Join(root, outside), ""},
		{"one name", []string{Held}, filepath.Join(root, Held), ""},
		{"stack climbing out", []string{Work, "acme", "dev", "../../../../../x"}, "", `"../../../../../x" is not a single name`},
		{"stack nesting", []string{Work, "acme", "dev", "team/foo"}, "", `"team/foo" is not a single name`},
		{"client climbing out", []string{State, "../../x", "dev"}, "", `"../../x" is not a single name`},
		{"dot dot", []string{Held, ".."}, "", `".." is not a single name`},
		{"empty", []string{Held, "acme", ""}, "", `"" is not a single name`},
		{"backslash", []string{Held, `a\b`}, "", `"a\\b" is not a single name`},
	}
	// A Joiner gives what Join gives, the first time and from what it
	// kept; a nil one too.
	var joiner Joiner
	var none *Joiner
	for _, impl := range []struct {
		name string
		join func(string, ...string) (string, error)
	}{{"Join", Join}, {"Joiner", joiner.Join}, {"Joiner again", joiner.Join}, {"nil Joiner", none.Join}} {
		for _, tt := range tests {
			t.Run(impl.name+"/"+tt.name, func(t *testing.T) {
				got, err := impl.join(root, tt.elems...)
				if tt.wantErr != "" {
					if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
						t.Errorf("Join(%q) = %q, %v, want an error containing %q", tt.elems, got, err, tt.wantErr)
					}
					return
				}
				if err != nil || got != tt.want {
					t.Errorf("Join(%q) = %q, %v, want %q", tt.elems, got, err, tt.want)
				}
				if !strings.HasPrefix(got, root+string(filepath.Separator)) {
					t.Errorf("Join(%q) = %q, outside %s", tt.elems, got, root)
				}
			})
		}
	}
	if len(joiner.dirs) == 0 {
		t.Errorf("Joiner kept no directory")
	}
}
