package testkit

import (
	"os"
	"os/exec"
	"testing"
)

// Git runs git in dir as a person with no configuration of their own
// (no global or system config; a fixed author and committer), and
// returns what it printed. A failure fails the test.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Reviewer", "GIT_AUTHOR_EMAIL=reviewer@example.com",
		"GIT_COMMITTER_NAME=Reviewer", "GIT_COMMITTER_EMAIL=reviewer@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %q in %s: %v\n%s", args, dir, err, out)
	}
	return string(out)
}
