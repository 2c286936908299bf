package testkit

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestGit makes a commit with no configuration of the user's: the author
// is the fixed one.
func TestGit(t *testing.T) {
	dir := t.TempDir()
	WriteFile(t, filepath.Join(dir, "a.txt"), "a\n")
	Git(t, dir, "init", "--quiet")
	Git(t, dir, "add", "-A")
	Git(t, dir, "commit", "--quiet", "-m", "first")
	if got := Git(t, dir, "log", "--format=%an <%ae>"); strings.TrimSpace(got) != "Reviewer <reviewer@example.com>" {
		t.Errorf("Git(log) = %q, want the fixed author", got)
	}
}
