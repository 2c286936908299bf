package daemon_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/daemon"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/flux"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/runlog"
)

// TestRunStopsOnCancel cancels the loop while a stack applies: once the
// shutdown grace has passed, tofu is interrupted gracefully, the run is
// recorded as interrupted, no other reconcile starts, and Run returns nil.
func TestRunStopsOnCancel(t *testing.T) {
	h := newHarness(t, "slow", "")
	h.start()
	deadline := time.Now().Add(2 * time.Minute)
	for !strings.Contains(h.logs.String(), "INFO [slow] installing the infrastructure") {
		if time.Now().After(deadline) {
			t.Fatalf("slow did not start applying within 2m\nlogs:\n%s", h.logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	if err := h.stop(); err != nil {
		t.Fatalf("Run() after cancel = %v, want nil", err)
	}
	if took := time.Since(start); took > 25*time.Second {
		t.Errorf("Run() returned %s after cancel, want tofu interrupted well before its 30s sleep", took)
	}
	logs := h.logs.String()
	if !strings.HasSuffix(logs, "INFO reconcile loop stopped\n") || strings.Contains(logs, "reconcile #2") || strings.Contains(logs, "next reconcile in") {
		t.Errorf("logs after cancel, want the loop stopped after reconcile #1 without scheduling another:\n%s", logs)
	}
	st := h.d.Status()
	if e := st.Environments[0]; e.Reconciles != 1 || e.Running || !st.NextReconcileAt.IsZero() {
		t.Errorf("status after cancel = %+v (next %v), want one finished reconcile and none scheduled", e, st.NextReconcileAt)
	}

	ctx := context.Background()
	env, err := flux.Load(ctx, h.dir)
	if err != nil {
		t.Fatal(err)
	}
	set, err := reconcile.Options{StateDir: h.state}.Settings(env)
	if err != nil {
		t.Fatal(err)
	}
	stores, err := envstores.OpenStores(ctx, env, set, nil)
	if err != nil {
		t.Fatalf("OpenStores() after Run returned = %v, want the history released", err)
	}
	defer stores.Close()
	last, ok, err := stores.History.Last(ctx, "acme", "dev", "slow")
	if err != nil || !ok || last.Result != history.ResultInterrupted {
		t.Errorf("History.Last(slow) = %+v, %v, %v, want the run recorded as interrupted", last, ok, err)
	}
}

// TestRunKeepsErrors keeps going when an environment cannot be
// reconciled: the error is kept, logged, and retried on the next pass.
// Triggers are merged: two give one more pass.
func TestRunKeepsErrors(t *testing.T) {
	h := newHarness(t, "layered", token)
	missing := filepath.Join(h.root, "environments", "acme", "gone")
	h.d = mustNew(t, missing, h.logs)
	h.handler = h.d.Handler()
	// A trigger that comes while a pass runs starts another right after
	// it; one pending before the first pass is the same.
	h.d.Trigger()
	h.d.Trigger()
	h.start()
	st := h.waitPass(2)
	e := st.Environments[0]
	if e.Reconciles != 2 || e.Error == nil || !strings.Contains(e.Error.Message, "gone") || e.Report != nil || e.Client != "" {
		t.Errorf("status of a missing environment = %+v, want two reconciles, its error and no report", e)
	}
	code, body := do(t, h.handler, "GET", "/readyz", "", "")
	if want := missing + ": reconcile failed: "; code != 503 || !strings.HasPrefix(body, want) {
		t.Errorf("GET /readyz = %d %q, want 503 starting %q", code, body, want)
	}
	if got := scrape(t, h.handler)[`strata_reconcile_total{client="",environment="",result="error"}`]; got != 2 {
		t.Errorf(`strata_reconcile_total{result="error"} = %v, want 2`, got)
	}
	logs := h.logs.String()
	for _, line := range []string{
		"ERROR reconcile #1 of " + missing + " failed: ",
		"INFO reconcile requested while one was running: starting again\n",
		"ERROR reconcile #2 of " + missing + " failed: ",
	} {
		if !strings.Contains(logs, line) {
			t.Errorf("logs lack %q:\n%s", line, logs)
		}
	}
}

// mustNew returns a daemon of one environment directory that runs no tofu
// before its reconcile fails.
func mustNew(t *testing.T, dir string, logs *testkit.Buffer) *daemon.Daemon {
	t.Helper()
	log := runlog.New(logs, nil)
	d, err := daemon.New(daemon.Config{
		Environments: []string{dir},
		Interval:     time.Hour,
		Token:        token,
		Logger:       log,
		Pipeline:     reconcile.Pipeline{Options: reconcile.Options{StateDir: t.TempDir()}},
	})
	if err != nil {
		t.Fatalf("New(%q) = %v", dir, err)
	}
	return d
}
