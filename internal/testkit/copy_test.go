package testkit

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tree maps every file under dir to its content.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCopy(t *testing.T) {
	src := filepath.Join("testdata", "fixture")
	tests := []struct {
		name string
		copy func(t *testing.T) string
		want map[string]string
	}{
		{
			name: "Copy",
			copy: func(t *testing.T) string { return Copy(t, src) },
			want: map[string]string{"a.txt": "one\n", "sub/b.txt": "two\n"},
		},
		{
			name: "WriteFile",
			copy: func(t *testing.T) string {
				dst := t.TempDir()
				WriteFile(t, filepath.Join(dst, "made", "dir", "f"), "body")
				return dst
			},
			want: map[string]string{"made/dir/f": "body"},
		},
		{
			name: "CopyInto beside other files",
			copy: func(t *testing.T) string {
				dst := t.TempDir()
				if err := os.WriteFile(filepath.Join(dst, "kept"), []byte("kept"), 0o644); err != nil {
					t.Fatal(err)
				}
				CopyInto(t, filepath.Join(dst, "in"), src)
				return dst
			},
			want: map[string]string{"kept": "kept", "in/a.txt": "one\n", "in/sub/b.txt": "two\n"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dst := tt.copy(t)
			if diff := cmp.Diff(tt.want, tree(t, dst)); diff != "" {
				t.Errorf("%s(%q) tree (-want +got):\n%s", tt.name, src, diff)
			}
			// The copy is the test's own: changing it leaves the fixture.
			if err := os.WriteFile(filepath.Join(dst, "new"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(src, "new")); err == nil {
				t.Errorf("%s(%q): writing the copy changed the fixture", tt.name, src)
			}
		})
	}
}

func TestEditFile(t *testing.T) {
	root := t.TempDir()
	WriteFile(t, filepath.Join(root, "a", "main.tf"), "cidr = \"10.0.0.0/16\"\ncidr = \"10.0.0.0/16\"\n")
	EditFile(t, root, "a/main.tf", "10.0.0.0/16", "10.1.0.0/16")
	b, err := os.ReadFile(filepath.Join(root, "a", "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), "cidr = \"10.1.0.0/16\"\ncidr = \"10.0.0.0/16\"\n"; got != want {
		t.Errorf("EditFile(%q) = %q, want %q", "a/main.tf", got, want)
	}
}
