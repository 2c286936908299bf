package reconcile_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/filestat"
	"github.com/strata-iac/strata/orchestrator/history"
)

// TestStateChangedOutsideStrata: a state changed behind strata's back
// (`tofu state rm`) no longer hides behind the skip of unchanged stacks:
// the stack is planned with cause drift, and the log says how the state
// changed.
func TestStateChangedOutsideStrata(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if rep, logs := e.reconcile(history.OperationApply, time.Hour); rep.Failed() {
		t.Fatalf("first apply failed:\n%s", logs)
	}
	stateRm(t, e)

	rep, logs := e.reconcile(history.OperationApply, time.Hour)
	if got := results(rep)["base"]; got != "applied/drift" {
		t.Errorf("after tofu state rm, base = %s, want applied/drift\nlogs:\n%s", got, logs)
	}
	if !regexp.MustCompile(`INFO \[base\] state changed outside strata: serial \d+ → \d+`).MatchString(logs) {
		t.Errorf("logs lack base's state change line\nlogs:\n%s", logs)
	}
	if got := results(rep)["app"]; got != "unchanged/" {
		t.Errorf("app = %s, want unchanged: its state did not change\nlogs:\n%s", got, logs)
	}

	// Applied again by strata, the new state is the recorded one.
	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	if got := results(rep)["base"]; got != "unchanged/" {
		t.Errorf("after strata re-applied base, base = %s, want unchanged\nlogs:\n%s", got, logs)
	}
}

// TestFailedRunIsNotUpToDate: a stack whose last run failed is planned
// again even when its inputs are back to those of its last good apply.
func TestFailedRunIsNotUpToDate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if rep, logs := e.reconcile(history.OperationApply, time.Hour); rep.Failed() {
		t.Fatalf("first apply failed:\n%s", logs)
	}
	setInit(t, e.root, "jobsFail", `"yes"`)
	if rep, logs := e.reconcile(history.OperationApply, time.Hour); results(rep)["jobs"] != "failed/" {
		t.Fatalf("jobs told to fail = %s, want failed\nlogs:\n%s", results(rep)["jobs"], logs)
	}
	setInit(t, e.root, "jobsFail", `"no"`)
	rep, logs := e.reconcile(history.OperationApply, time.Hour)
	got := results(rep)
	if diff := cmp.Diff(map[string]string{
		"base": "unchanged/", "net": "unchanged/", "cluster": "unchanged/",
		"app": "unchanged/", "jobs": "no-changes/", "report": "unchanged/",
	}, got); diff != "" {
		t.Errorf("after the inputs were reverted, results diff (-want +got):\n%s\nlogs:\n%s", diff, logs)
	}
	if !strings.Contains(logs, "run #3 started") {
		t.Errorf("logs lack a new run of jobs\nlogs:\n%s", logs)
	}
}

// TestStateChangedOutsideStrataAfterKept: once a reconcile kept the
// states' versions with their stats (statefile.Versions), a state changed
// behind strata's back is still seen: its stat changed with it.
func TestStateChangedOutsideStrataAfterKept(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if rep, logs := e.reconcile(history.OperationApply, time.Hour); rep.Failed() {
		t.Fatalf("first apply failed:\n%s", logs)
	}
	// A state is kept only when it changed well before it was read.
	time.Sleep(filestat.Window + 100*time.Millisecond)
	if rep, logs := e.reconcile(history.OperationApply, time.Hour); results(rep)["base"] != "unchanged/" {
		t.Fatalf("second apply: base = %s, want unchanged\nlogs:\n%s", results(rep)["base"], logs)
	}
	kept := filepath.Join(e.state, "state-versions", "acme", "dev.json")
	if b, err := os.ReadFile(kept); err != nil || !strings.Contains(string(b), "base") {
		t.Fatalf("the second apply kept no state versions in %s: %v\n%s", kept, err, b)
	}
	stateRm(t, e)
	rep, logs := e.reconcile(history.OperationApply, time.Hour)
	if got := results(rep)["base"]; got != "applied/drift" {
		t.Errorf("after tofu state rm, base = %s, want applied/drift\nlogs:\n%s", got, logs)
	}
}

// stateRm changes base's state behind strata's back, as a person would:
// tofu state rm of one of its resources.
func stateRm(t *testing.T, e *env) {
	t.Helper()
	cmd := exec.Command(e.tofu, "state", "rm", "terraform_data.account")
	cmd.Dir = filepath.Join(e.state, "work", "acme", "dev", "base")
	cmd.Env = append(os.Environ(), "TF_IN_AUTOMATION=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tofu state rm = %v\n%s", err, out)
	}
}
