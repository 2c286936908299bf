package orchestrator_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/orchestrator"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// TestRemovedStack takes a stack out of the environment: its destroy plan
// goes through policy like any other, so it is held until a person
// approves it; then its resources are destroyed and its contract says it
// is not installed.
func TestRemovedStack(t *testing.T) {
	e := newEnv(t)
	if rep, logs := e.reconcile(history.OperationApply, time.Hour); !rep.Converged() {
		t.Fatalf("first apply failed:\n%s", logs)
	}
	if err := os.Remove(filepath.Join(e.root, "environments", "acme", "dev", "services", "report.yaml")); err != nil {
		t.Fatal(err)
	}

	rep, logs := e.reconcile(history.OperationPlan, time.Hour)
	if got := stack(t, rep, "report"); got.Result != history.ResultPlanned || got.Cause != runner.CauseRemoved || got.Summary.Destroy != 1 {
		t.Fatalf("plan: report = %+v, want a planned removal destroying 1\nlogs:\n%s", got, logs)
	}

	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	held := stack(t, rep, "report")
	if held.Result != history.ResultHeld || held.Cause != runner.CauseRemoved || held.Layer != "(removed)" {
		t.Fatalf("apply: report = %+v, want its removal held by policy\nlogs:\n%s", held, logs)
	}
	if !strings.Contains(logs, "INFO [report] removing the infrastructure: stack report left the environment") {
		t.Errorf("apply: logs do not say why report is destroyed:\n%s", logs)
	}
	if doc := readContract(t, e.state, "acme", "dev", "report"); !doc.Installed {
		t.Errorf("held removal already unpublished the contract")
	}

	// The stack is no longer in the environment, yet its held removal can
	// be approved, through the same path as any held plan.
	dir := filepath.Join(e.root, "environments", "acme", "dev")
	opts := orchestrator.Options{StateDir: e.state}
	ctx := context.Background()
	if _, err := orchestrator.Approve(ctx, dir, orchestrator.ApproveRequest{Stack: "gone", PlanID: held.PlanID, Reason: "r", By: "ana"}, opts); !errors.Is(err, orchestrator.ErrUnknownStack) {
		t.Errorf("Approve(gone) = %v, want ErrUnknownStack", err)
	}
	a, err := orchestrator.Approve(ctx, dir, orchestrator.ApproveRequest{Stack: "report", PlanID: held.PlanID, Reason: "report is retired", By: "ana"}, opts)
	if err != nil || a.Stack != "report" || a.PlanID != held.PlanID {
		t.Fatalf("Approve(report, %s) = %+v, %v, want the approval", held.PlanID, a, err)
	}

	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	if got := stack(t, rep, "report"); got.Result != history.ResultApplied || got.Summary.Destroy != 1 {
		t.Fatalf("approved: report = %+v, want the removal applied\nlogs:\n%s", got, logs)
	}
	doc := readContract(t, e.state, "acme", "dev", "report")
	if doc.Installed || len(doc.Public) != 0 || len(doc.Private) != 0 {
		t.Errorf("contract of the removed stack = %+v, want installed false and no values", doc)
	}

	rep, _ = e.reconcile(history.OperationApply, time.Hour)
	for _, s := range rep.Stacks {
		if s.Stack == "report" {
			t.Errorf("after its removal report still appears: %+v", s)
		}
	}
}
