package reconcile_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/internal/testrepo"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/tofu"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// TestRunTimeout interrupts a run that outlives its timeout: tofu is
// stopped gracefully, the run is recorded as failed, and what the
// interruption left behind (a tainted resource, to be replaced) is not
// applied silently on the next run: it goes through policy like any plan.
func TestRunTimeout(t *testing.T) {
	root := testrepo.Fixture(t, "slow")
	dir := filepath.Join(root, "environments", "acme", "dev")
	state := t.TempDir()
	run := func(timeout time.Duration) (*report.Report, string, time.Duration) {
		var logs testkit.Buffer
		start := time.Now()
		rep, err := reconcile.Reconcile(context.Background(), dir, history.OperationApply, reconcile.Options{
			Tofu: tofutest.Binary(t), StateDir: state, Timeout: timeout, Logger: runlog.New(&logs, nil),
		})
		if err != nil {
			t.Fatalf("Reconcile(%q) = %v\nlogs:\n%s", dir, err, logs.String())
		}
		return rep, logs.String(), time.Since(start)
	}

	// Long enough for init and plan on a busy machine, so that the
	// timeout lands in the apply's 30s provisioner.
	rep, logs, took := run(8 * time.Second)
	got := stack(t, rep, "slow")
	if got.Result != history.ResultFailed || !strings.Contains(got.Message, "run timed out after 8s") {
		t.Fatalf("slow = %s (%s), want failed: run timed out after 8s\nlogs:\n%s", got.Result, got.Message, logs)
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

// TestRunCancelled stops a reconcile from outside (SIGTERM does this): once
// the shutdown grace has passed, tofu is interrupted gracefully and the
// run is recorded as interrupted, neither failed nor timed out.
func TestRunCancelled(t *testing.T) {
	root := testrepo.Fixture(t, "slow")
	dir := filepath.Join(root, "environments", "acme", "dev")
	state := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	var logs testkit.Buffer
	go func() {
		// Into the apply's 30s provisioner.
		stream := filepath.Join(state, "work", "acme", "dev", "slow", tofu.StreamFile)
		for b, _ := os.ReadFile(stream); !strings.Contains(string(b), `"apply_start"`); b, _ = os.ReadFile(stream) {
			time.Sleep(50 * time.Millisecond)
		}
		cancel()
	}()
	rep, err := reconcile.Reconcile(ctx, dir, history.OperationApply, reconcile.Options{
		Tofu: tofutest.Binary(t), StateDir: state, Logger: runlog.New(&logs, nil),
		ShutdownGrace: 100 * time.Millisecond,
	})
	if err != nil {
		t.Fatalf("Reconcile(%q) = %v", dir, err)
	}
	got := stack(t, rep, "slow")
	if got.Result != history.ResultInterrupted || strings.Contains(got.Message, "timed out") || !strings.Contains(got.Message, "run interrupted") {
		t.Errorf("slow = %s (%s), want interrupted because it was cancelled", got.Result, got.Message)
	}
	if runs := historyOf(t, root, state, "acme", "dev", "slow"); len(runs) != 1 || runs[0].Result != history.ResultInterrupted {
		t.Errorf("history of slow = %+v, want the cancelled run recorded as interrupted", runs)
	}
	if !strings.Contains(logs.String(), "the apply in flight has 100ms to finish") {
		t.Errorf("logs = %s, want the shutdown grace said", logs.String())
	}
}
