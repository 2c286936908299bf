package reconcile_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/statedir"
)

// TestNothingDueLeavesHistory reconciles an environment with nothing due:
// the history file is not written, and its snapshot, which the reconcile
// before made, is kept rather than copied again.
func TestNothingDueLeavesHistory(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if rep, logs := e.reconcile(history.OperationApply, time.Hour); !rep.Converged() {
		t.Fatalf("first apply failed:\n%s", logs)
	}
	// The first apply wrote the history after its snapshot: the next
	// reconcile copies it.
	e.reconcile(history.OperationApply, time.Hour)
	path := filepath.Join(e.state, statedir.History)
	stat := func() (file, snap os.FileInfo) {
		t.Helper()
		file, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		snap, err = os.Stat(path + history.SnapshotSuffix)
		if err != nil {
			t.Fatal(err)
		}
		return file, snap
	}
	file, snap := stat()
	rep, logs := e.reconcile(history.OperationApply, time.Hour)
	for _, s := range rep.Stacks {
		if s.Result != history.ResultUnchanged {
			t.Fatalf("stack %s = %s, want unchanged: nothing is due\nlogs:\n%s", s.Stack, s.Result, logs)
		}
	}
	fileAfter, snapAfter := stat()
	if !fileAfter.ModTime().Equal(file.ModTime()) || fileAfter.Size() != file.Size() {
		t.Errorf("history %s changed (%s, %d bytes → %s, %d bytes) in a reconcile with nothing due, want it untouched",
			path, file.ModTime(), file.Size(), fileAfter.ModTime(), fileAfter.Size())
	}
	if !os.SameFile(snap, snapAfter) || !snapAfter.ModTime().Equal(snap.ModTime()) {
		t.Errorf("snapshot %s written again in a reconcile with nothing due, want it kept", path+history.SnapshotSuffix)
	}
}
