package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
)

// TestValidateUncommitted validates a work tree that differs from its
// commit: the text and JSON reports name the commit Flux reads and the
// files it does not have yet; a clean work tree says nothing of it.
func TestValidateUncommitted(t *testing.T) {
	root := repo(t)
	testkit.Git(t, root, "init", "--quiet")
	testkit.Git(t, root, "add", "-A")
	testkit.Git(t, root, "commit", "--quiet", "-m", "base")
	env := filepath.Join(root, "environments", "acme", "dev")
	out, _ := checkRun(t, []string{"validate", env}, 0, nil, nil)
	if strings.Contains(out, "not committed") {
		t.Errorf("strata validate of a clean work tree said:\n%s\nwant nothing of commits", out)
	}
	testkit.WriteFile(t, filepath.Join(env, "notes.txt"), "draft\n")
	checkRun(t, []string{"validate", env}, 0, []string{"not committed (validated as they are in the work tree; Flux reads commit ", "  ?? environments/acme/dev/notes.txt"}, nil)
	checkRun(t, []string{"validate", env, "-o", "json"}, 0, []string{`"uncommitted": {`, `"?? environments/acme/dev/notes.txt"`}, nil)
}
