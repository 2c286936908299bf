package reconcile_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/runlog"
)

// With Options.Only, only the stacks it selects run; every other is
// reported unchanged with no run, and no tofu process starts for it.
func TestReconcileOnly(t *testing.T) {
	e := newEnv(t)
	e.reconcile(history.OperationApply, 0)
	setInit(t, e.root, "region", "eu-west-3")
	var logs testkit.Buffer
	rep, err := reconcile.Reconcile(context.Background(), filepath.Join(e.root, "environments", "acme", "dev"), history.OperationPlan, reconcile.Options{
		Tofu:     e.tofu,
		StateDir: e.state,
		Logger:   runlog.New(&logs, nil),
		Only:     func(stack string) bool { return stack == "app" || stack == "net" },
	})
	if err != nil {
		t.Fatalf("Reconcile(plan, Only app and net) = %v\nlogs:\n%s", err, logs.String())
	}
	got := map[string]string{}
	for _, s := range rep.Stacks {
		got[s.Stack] = string(s.Result)
		if s.Result == history.ResultUnchanged && (s.Run != 0 || s.Message != report.NotSelected) {
			t.Errorf("Reconcile(plan, Only) %s = run %d %q, want no run: %q", s.Stack, s.Run, s.Message, report.NotSelected)
		}
	}
	for _, s := range []string{"base", "cluster", "jobs", "report"} {
		if got[s] != string(history.ResultUnchanged) {
			t.Errorf("Reconcile(plan, Only) %s = %s, want unchanged", s, got[s])
		}
		if strings.Contains(logs.String(), "["+s+"] run #") {
			t.Errorf("Reconcile(plan, Only) ran %s, which it does not select\nlogs:\n%s", s, logs.String())
		}
	}
	for _, s := range []string{"app", "net"} {
		if !strings.Contains(logs.String(), "["+s+"] run #2 started") {
			t.Errorf("Reconcile(plan, Only) did not run %s\nlogs:\n%s", s, logs.String())
		}
	}
	if diff := cmp.Diff(6, len(rep.Stacks)); diff != "" {
		t.Errorf("Reconcile(plan, Only) reports (-want +got):\n%s", diff)
	}
}
