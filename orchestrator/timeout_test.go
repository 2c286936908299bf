package orchestrator_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/orchestrator"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// TestRunTimeout interrupts a run that outlives its timeout: tofu is
// stopped gracefully, the run is recorded as failed, and what the
// interruption left behind (a tainted resource, to be replaced) is not
// applied silently on the next run: it goes through policy like any plan.
func TestRunTimeout(t *testing.T) {
	root := fixture(t, "slow")
	dir := filepath.Join(root, "environments", "acme", "dev")
	state := t.TempDir()
	run := func(timeout time.Duration) (*orchestrator.Report, string, time.Duration) {
		var logs syncBuffer
		start := time.Now()
		rep, err := orchestrator.Reconcile(context.Background(), dir, history.OperationApply, orchestrator.Options{
			Tofu: tofutest.Binary(t), StateDir: state, Timeout: timeout, Logger: runlog.New(&logs, nil),
		})
		if err != nil {
			t.Fatalf("Reconcile(%q) = %v\nlogs:\n%s", dir, err, logs.String())
		}
		return rep, logs.String(), time.Since(start)
	}

	rep, logs, took := run(2 * time.Second)
	got := stack(t, rep, "slow")
	if got.Result != history.ResultFailed || !strings.Contains(got.Message, "run timed out after 2s") {
		t.Fatalf("slow = %s (%s), want failed: run timed out after 2s\nlogs:\n%s", got.Result, got.Message, logs)
	}
	if took > 25*time.Second {
		t.Errorf("the timed-out reconcile took %s, want tofu interrupted well before its 30s sleep", took)
	}
	runs := historyOf(t, root, state, "acme", "dev", "slow")
	if len(runs) != 1 || runs[0].Result != history.ResultFailed || !strings.Contains(runs[0].Error, "timed out") {
		t.Errorf("history of slow = %+v, want one failed run that says it timed out", runs)
	}

	rep, logs, _ = run(time.Minute)
	if got := stack(t, rep, "slow"); got.Result != history.ResultHeld || got.Policy == nil || len(got.Policy.Denies) != 1 {
		t.Errorf("after the interruption slow = %s (%s), want the replace of the tainted resource held by policy\nlogs:\n%s", got.Result, got.Message, logs)
	}
}

// TestRunCancelled stops a reconcile from outside (SIGTERM does this): tofu
// is interrupted gracefully and the run is recorded as cancelled, not as
// timed out.
func TestRunCancelled(t *testing.T) {
	root := fixture(t, "slow")
	dir := filepath.Join(root, "environments", "acme", "dev")
	state := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	var logs syncBuffer
	go func() {
		for !strings.Contains(logs.String(), "run #1 started") {
			time.Sleep(50 * time.Millisecond)
		}
		time.Sleep(time.Second) // into the apply's 30s provisioner
		cancel()
	}()
	rep, err := orchestrator.Reconcile(ctx, dir, history.OperationApply, orchestrator.Options{
		Tofu: tofutest.Binary(t), StateDir: state, Logger: runlog.New(&logs, nil),
	})
	if err != nil {
		t.Fatalf("Reconcile(%q) = %v", dir, err)
	}
	got := stack(t, rep, "slow")
	if got.Result != history.ResultFailed || strings.Contains(got.Message, "timed out") || !strings.Contains(got.Message, "run interrupted") {
		t.Errorf("slow = %s (%s), want failed because it was cancelled", got.Result, got.Message)
	}
	if runs := historyOf(t, root, state, "acme", "dev", "slow"); len(runs) != 1 || runs[0].Result != history.ResultFailed {
		t.Errorf("history of slow = %+v, want the cancelled run recorded as failed", runs)
	}
}
