package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

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
			fi, _ := os.Stat(tt.path)
			if fi.Mode().Perm() != tt.perm {
				t.Errorf("Write(%q) mode = %v, want %v", tt.path, fi.Mode().Perm(), tt.perm)
			}
			entries, _ := os.ReadDir(filepath.Dir(tt.path))
			if len(entries) != 1 {
				t.Errorf("Write(%q) left %d files, want only the target", tt.path, len(entries))
			}
		})
	}
}
