package reconcile_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/strata-iac/strata/orchestrator/history"
)

// TestStateFilesPrivate: the local state files tofu writes, and their
// backups, are left readable by their owner only, and a file an older
// strata left 0644 is tightened by the stack's next run, a plan included.
func TestStateFilesPrivate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if rep, logs := e.reconcile(history.OperationApply, time.Hour); !rep.Converged() {
		t.Fatalf("first apply failed:\n%s", logs)
	}
	setInit(t, e.root, "appSize", "large")
	if rep, logs := e.reconcile(history.OperationApply, time.Hour); !rep.Converged() {
		t.Fatalf("second apply failed:\n%s", logs)
	}
	dir := filepath.Join(e.state, "state", "acme", "dev")
	mode := func(name string) os.FileMode {
		t.Helper()
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("stat %s: %v", name, err)
		}
		return fi.Mode().Perm()
	}
	for _, name := range []string{"app.tfstate", "app.tfstate.backup", "net.tfstate"} {
		if got := mode(name); got != 0o600 {
			t.Errorf("mode of %s = %v, want 0600", name, got)
		}
	}
	for _, name := range []string{"app.tfstate", "app.tfstate.backup"} {
		if err := os.Chmod(filepath.Join(dir, name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if rep, logs := e.reconcile(history.OperationPlan, 0); rep.Failed() {
		t.Fatalf("plan failed:\n%s", logs)
	}
	for _, name := range []string{"app.tfstate", "app.tfstate.backup"} {
		if got := mode(name); got != 0o600 {
			t.Errorf("mode of %s after a plan = %v, want 0600: the run tightens what an older strata left", name, got)
		}
	}
}
