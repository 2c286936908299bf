package atomicfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// names lists the entries of dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		path string
		data string
		perm os.FileMode
	}{
		{"new file in a new directory", filepath.Join(dir, "a", "b", "f.json"), `{"a":1}`, 0o600},
		{"overwrite", filepath.Join(dir, "a", "b", "f.json"), `{"a":2}`, 0o644},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := Write(tt.path, []byte(tt.data), tt.perm); err != nil {
				t.Fatalf("Write(%q) = %v", tt.path, err)
			}
			b, err := os.ReadFile(tt.path)
			if err != nil || string(b) != tt.data {
				t.Errorf("Write(%q) then read = %q, %v, want %q", tt.path, b, err, tt.data)
			}
			fi, err := os.Stat(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != tt.perm {
				t.Errorf("Write(%q) mode = %v, want %v", tt.path, fi.Mode().Perm(), tt.perm)
			}
			if diff := cmp.Diff([]string{"f.json"}, names(t, filepath.Dir(tt.path))); diff != "" {
				t.Errorf("Write(%q) left (-want +got):\n%s", tt.path, diff)
			}
		})
	}
}

func TestWriteIn(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		wantErr bool
	}{
		{"top level", "f", false},
		{"in a directory", "sub/f", false},
		{"missing directory", "none/f", true},
		{"outside the root", "../f", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			root, err := os.OpenRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer root.Close()
			for _, data := range []string{"one", "two"} {
				err := WriteIn(root, tt.file, []byte(data), 0o644)
				if tt.wantErr {
					if err == nil {
						t.Fatalf("WriteIn(%q) = nil, want an error", tt.file)
					}
					if diff := cmp.Diff([]string{"sub"}, names(t, dir)); diff != "" {
						t.Errorf("WriteIn(%q) left (-want +got):\n%s", tt.file, diff)
					}
					return
				}
				if err != nil {
					t.Fatalf("WriteIn(%q) = %v", tt.file, err)
				}
				b, err := os.ReadFile(filepath.Join(dir, tt.file))
				if err != nil || string(b) != data {
					t.Errorf("WriteIn(%q, %q) then read = %q, %v, want %q", tt.file, data, b, err, data)
				}
			}
			if diff := cmp.Diff([]string{filepath.Base(tt.file)}, names(t, filepath.Join(dir, filepath.Dir(tt.file)))); filepath.Dir(tt.file) != "." && diff != "" {
				t.Errorf("WriteIn(%q) left (-want +got):\n%s", tt.file, diff)
			}
		})
	}
}
