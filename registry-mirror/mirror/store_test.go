package mirror

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-iac/strata/registry-mirror/protocol"
)

// TestNewStoreCreatesNothing checks that a store is its directory alone,
// made by the first upload, and that a missing directory is an empty
// mirror rather than an error.
func TestNewStoreCreatesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mirror")
	s := NewStore(dir)
	if s.Dir() != dir {
		t.Errorf("NewStore(%q).Dir() = %q, want %q", dir, s.Dir(), dir)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Stat(%q) after NewStore = %v, want not exist", dir, err)
	}
	if _, err := s.Providers.Versions(context.Background(), testHost, testNS, testType); !errors.Is(err, protocol.ErrNotFound) {
		t.Errorf("Versions() of a missing directory = %v, want protocol.ErrNotFound", err)
	}
	add(t, s, "0.1.0", "linux", "amd64")
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		t.Errorf("Stat(%q) after AddProvider = %v, %v, want a directory", dir, info, err)
	}
}
