package main

import (
	"os"
	"os/exec"
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
	for _, args := range [][]string{{"init", "--quiet"}, {"add", "-A"}, {"commit", "--quiet", "-m", "base"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	env := filepath.Join(root, "environments", "acme", "dev")
	out, _ := checkRun(t, []string{"validate", env}, 0, nil, nil)
	if strings.Contains(out, "not committed") {
		t.Errorf("strata validate of a clean work tree said:\n%s\nwant nothing of commits", out)
	}
	testkit.WriteFile(t, filepath.Join(env, "notes.txt"), "draft\n")
	checkRun(t, []string{"validate", env}, 0, []string{"not committed (validated as they are in the work tree; Flux reads commit ", "  ?? environments/acme/dev/notes.txt"}, nil)
	checkRun(t, []string{"validate", env, "-o", "json"}, 0, []string{`"uncommitted": {`, `"?? environments/acme/dev/notes.txt"`}, nil)
}
