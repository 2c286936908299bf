package testkit

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGenerated writes a page with update, and then finds it current.
func TestGenerated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "page.md")
	Generated(t, path, "# page\n", true, "go test -update")
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "# page\n" {
		t.Fatalf("Generated(update) wrote %q, %v, want the page", b, err)
	}
	Generated(t, path, "# page\n", false, "go test -update")
}
