package reconcile_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/hashkey"
	"github.com/strata-iac/strata/orchestrator/history"
)

// TestHashKeyLost: with the hash key deleted, every stack is planned once
// (cause rehashed, nothing applied: its plan has no changes), and the run
// after is up to date again under the new key.
func TestHashKeyLost(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if rep, logs := e.reconcile(history.OperationApply, time.Hour); rep.Failed() {
		t.Fatalf("first apply failed:\n%s", logs)
	}
	path := filepath.Join(e.state, hashkey.File)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatalf("the first apply left no hash key: %v", err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("hash key %s mode = %v, want 0600", path, perm)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}

	rep, logs := e.reconcile(history.OperationApply, time.Hour)
	want := map[string]string{
		"base": "no-changes/rehashed", "net": "no-changes/rehashed", "cluster": "no-changes/rehashed",
		"app": "no-changes/rehashed", "jobs": "no-changes/rehashed", "report": "no-changes/rehashed",
	}
	if diff := cmp.Diff(want, results(rep)); diff != "" {
		t.Errorf("after the key was lost, results diff (-want +got):\n%s\nlogs:\n%s", diff, logs)
	}
	if !strings.Contains(logs, "the hash key changed since run #1 (lost or replaced)") {
		t.Errorf("logs do not say why every stack is planned\nlogs:\n%s", logs)
	}

	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	for stack, got := range results(rep) {
		if got != "unchanged/" {
			t.Errorf("the run after the re-plan, %s = %s, want unchanged\nlogs:\n%s", stack, got, logs)
		}
	}
}
