package hashkey

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestLoad(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	first, err := Load(dir)
	if err != nil {
		t.Fatalf("Load(%q) = %v, want a new key", dir, err)
	}
	if len(first) != Size {
		t.Errorf("Load(%q) = %d bytes, want %d", dir, len(first), Size)
	}
	fi, err := os.Stat(filepath.Join(dir, File))
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("key file mode = %v, want 0600", perm)
	}
	again, err := Load(dir)
	if err != nil {
		t.Fatalf("Load(%q) again = %v", dir, err)
	}
	if !bytes.Equal(again, first) {
		t.Errorf("Load(%q) again gave another key: the key must be created once", dir)
	}

	// Lost: a new key, with another ID.
	if err := os.Remove(filepath.Join(dir, File)); err != nil {
		t.Fatal(err)
	}
	fresh, err := Load(dir)
	if err != nil {
		t.Fatalf("Load(%q) after the key was deleted = %v", dir, err)
	}
	if ID(fresh) == ID(first) {
		t.Errorf("ID of a new key = ID of the lost one (%s)", ID(first))
	}
}

// TestLoadTogether starts several loads at once: they all get the one key
// that was written.
func TestLoadTogether(t *testing.T) {
	dir := t.TempDir()
	keys := make([][]byte, 8)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Go(func() {
			k, err := Load(dir)
			if err != nil {
				t.Errorf("Load(%q) = %v", dir, err)
			}
			keys[i] = k
		})
	}
	wg.Wait()
	for i, k := range keys {
		if !bytes.Equal(k, keys[0]) {
			t.Errorf("load %d got another key than load 0", i)
		}
	}
}

func TestLoadRefusesNonKey(t *testing.T) {
	tests := []struct {
		name    string
		content []byte
	}{
		{"empty", nil},
		{"short", []byte("not a key")},
		{"long", bytes.Repeat([]byte{1}, Size+1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, File)
			if err := os.WriteFile(path, tt.content, 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := Load(dir)
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "delete the file") {
				t.Errorf("Load(%q) = %v, want an error naming %s and the fix", dir, err, path)
			}
			got, _ := os.ReadFile(path)
			if !bytes.Equal(got, tt.content) {
				t.Errorf("key file after a refused load = %q, want it unchanged %q", got, tt.content)
			}
		})
	}
}

func TestID(t *testing.T) {
	a, b := bytes.Repeat([]byte{1}, Size), bytes.Repeat([]byte{2}, Size)
	if ID(a) != ID(a) || ID(a) == ID(b) {
		t.Errorf("ID(a) = %s, ID(b) = %s: want one ID per key", ID(a), ID(b))
	}
	if strings.Contains(ID(a), "0101") {
		t.Errorf("ID(a) = %s reveals the key", ID(a))
	}
}
