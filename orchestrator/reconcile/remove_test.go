package reconcile_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/flux"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// TestRemovedStack takes a stack out of the environment: its destroy plan
// goes through policy like any other, so it is held until a person
// approves it; then its resources are destroyed and its contract says it
// is not installed.
func TestRemovedStack(t *testing.T) {
	t.Parallel()
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
	opts := reconcile.Options{StateDir: e.state}
	ctx := context.Background()
	if _, err := reconcile.Approve(ctx, dir, approval.Request{Stack: "gone", PlanID: held.PlanID, Reason: "r", By: "ana"}, opts); !errors.Is(err, approval.ErrUnknownStack) {
		t.Errorf("Approve(gone) = %v, want ErrUnknownStack", err)
	}
	a, err := reconcile.Approve(ctx, dir, approval.Request{Stack: "report", PlanID: held.PlanID, Reason: "report is retired", By: "ana"}, opts)
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

// TestDeletedStack removes a stack whose deleted Terraform object still
// describes it (Options.Deleted, as strata controller gives it): its
// destroy is planned from that code by a run of the reconcile's runner,
// not in the workspace its last run left, which is gone; it goes through
// policy, held until approved, then destroys and unpublishes.
func TestDeletedStack(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if rep, logs := e.reconcile(history.OperationApply, time.Hour); !rep.Converged() {
		t.Fatalf("first apply failed:\n%s", logs)
	}
	dir := filepath.Join(e.root, "environments", "acme", "dev")
	ctx := context.Background()
	before, err := flux.Load(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "services", "report.yaml")); err != nil {
		t.Fatal(err)
	}
	// A runner pod keeps no workspace: neither does this machine now.
	work := filepath.Join(e.state, "work", "acme", "dev", "report")
	if _, err := os.Stat(work); err != nil {
		t.Fatalf("workspace of report: %v", err)
	}
	if err := os.RemoveAll(work); err != nil {
		t.Fatal(err)
	}
	var asked []string
	opts := reconcile.Options{Deleted: func(name string) *environment.Stack {
		asked = append(asked, name)
		return before.Stack(name)
	}}

	rep, logs := e.reconcileWith(history.OperationApply, opts)
	held := stack(t, rep, "report")
	if held.Result != history.ResultHeld || held.Cause != runner.CauseRemoved || !strings.Contains(logs, "deny_delete") {
		t.Fatalf("apply: report = %+v, want its destroy held by policy (deny_delete)\nlogs:\n%s", held, logs)
	}
	if want := "INFO [report] removing the infrastructure: Terraform/report was deleted with spec.destroyResourcesOnDeletion"; !strings.Contains(logs, want) {
		t.Errorf("apply: logs do not say %q:\n%s", want, logs)
	}
	if diff := cmp.Diff([]string{"report"}, asked); diff != "" {
		t.Errorf("Options.Deleted asked for (-want +got):\n%s", diff)
	}
	if _, err := reconcile.Approve(ctx, dir, approval.Request{Stack: "report", PlanID: held.PlanID, Reason: "retired", By: "ana"}, reconcile.Options{StateDir: e.state}); err != nil {
		t.Fatalf("Approve(report, %s) = %v", held.PlanID, err)
	}

	rep, logs = e.reconcileWith(history.OperationApply, opts)
	if got := stack(t, rep, "report"); got.Result != history.ResultApplied || got.Summary.Destroy != 1 {
		t.Fatalf("approved: report = %+v, want the destroy applied\nlogs:\n%s", got, logs)
	}
	if doc := readContract(t, e.state, "acme", "dev", "report"); doc.Installed || len(doc.Public) != 0 {
		t.Errorf("contract of the deleted stack = %+v, want installed false and no values", doc)
	}
	rep, _ = e.reconcileWith(history.OperationApply, opts)
	for _, s := range rep.Stacks {
		if s.Stack == "report" {
			t.Errorf("after its destroy report still appears: %+v", s)
		}
	}
}

// TestOrphanedStack takes out of the environment a stack without
// spec.destroyResourcesOnDeletion: true, as the Tofu Controller does when
// such a Terraform object is deleted: strata stops managing it, and keeps
// its resources, its state and its contract, and says so once.
func TestOrphanedStack(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if rep, logs := e.reconcile(history.OperationApply, time.Hour); !rep.Converged() {
		t.Fatalf("first apply failed:\n%s", logs)
	}
	if err := os.Remove(filepath.Join(e.root, "environments", "acme", "dev", "services", "app.yaml")); err != nil {
		t.Fatal(err)
	}
	const says = "WARN [app] left the repository, and its last run in it (#1) did not set spec.destroyResourcesOnDeletion: true: " +
		"strata no longer manages it; its resources, its state and its contract /configuration/app are kept"

	rep, logs := e.reconcile(history.OperationPlan, time.Hour)
	if got := stack(t, rep, "app"); got.Result != history.ResultOrphaned || got.Cause != runner.CauseRemoved || got.Run != 0 {
		t.Errorf("plan: app = %+v, want orphaned, unrecorded\nlogs:\n%s", got, logs)
	}
	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	if got := stack(t, rep, "app"); got.Result != history.ResultOrphaned || got.Run != 2 || got.Summary.Destroy != 0 {
		t.Errorf("apply: app = %+v, want orphaned as run #2, nothing destroyed\nlogs:\n%s", got, logs)
	}
	if !strings.Contains(logs, says) || strings.Contains(logs, "removing the infrastructure") {
		t.Errorf("apply: logs do not say app is let go of, or plan its destruction:\n%s", logs)
	}
	if !rep.Converged() {
		t.Errorf("a report with an orphaned stack is not converged: %+v", rep.Stacks)
	}
	if doc := readContract(t, e.state, "acme", "dev", "app"); !doc.Installed || len(doc.Public) == 0 {
		t.Errorf("contract of the orphaned stack = %+v, want it kept as published", doc)
	}
	if _, err := os.Stat(filepath.Join(e.state, "state", "acme", "dev", "app.tfstate")); err != nil {
		t.Errorf("state of the orphaned stack: %v, want it kept", err)
	}
	if runs := historyOf(t, e.root, e.state, "acme", "dev", "app"); len(runs) != 2 || runs[0].Result != history.ResultOrphaned || !strings.Contains(runs[0].Note, "strata no longer manages it") {
		t.Errorf("history of app = %+v, want its orphaning recorded with why", runs)
	}

	rep, _ = e.reconcile(history.OperationApply, time.Hour)
	for _, s := range rep.Stacks {
		if s.Stack == "app" {
			t.Errorf("once orphaned, app still appears: %+v", s)
		}
	}
}
