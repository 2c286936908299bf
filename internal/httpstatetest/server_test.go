package httpstatetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestServerWithTofu: the real tofu keeps its state in the server through
// a backend "http" block: apply writes it, a lock of another holder fails
// the plan, and force-unlock with that lock's ID releases it.
func TestServerWithTofu(t *testing.T) {
	bin := os.Getenv("STRATA_TOFU")
	if bin == "" {
		t.Skip("STRATA_TOFU is not set: no tofu to run")
	}
	s := Start(t, "u", "p")
	dir := t.TempDir()
	main := "terraform {\n  " + s.Backend("app") + "\n}\n\nresource \"terraform_data\" \"a\" {\n  input = \"a\"\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(main), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, error) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TF_HTTP_USERNAME=u", "TF_HTTP_PASSWORD=p", "TF_IN_AUTOMATION=1")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, args := range [][]string{{"init", "-input=false"}, {"apply", "-input=false", "-auto-approve"}} {
		if out, err := run(args...); err != nil {
			t.Fatalf("tofu %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	if state, ok := s.State("app"); !ok || !strings.Contains(string(state), `"terraform_data"`) {
		t.Errorf("State(app) = %q, %v, want the applied state", state, ok)
	}
	if s.Locked("app") {
		t.Error("Locked(app) after the apply = true, want the lock released")
	}
	s.Lock("app", "held-elsewhere")
	if out, err := run("plan", "-input=false", "-lock-timeout=0s"); err == nil || !strings.Contains(out, "held-elsewhere") {
		t.Errorf("tofu plan of a locked state = %v\n%s, want a lock error naming held-elsewhere", err, out)
	}
	if out, err := run("force-unlock", "-force", "held-elsewhere"); err != nil {
		t.Fatalf("tofu force-unlock: %v\n%s", err, out)
	}
	if s.Locked("app") {
		t.Error("Locked(app) after force-unlock = true, want false")
	}
}
