package reconcile_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/flux"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/policy"
)

// stack returns the report of one stack.
func stack(t *testing.T, rep *report.Report, name string) report.StackReport {
	t.Helper()
	for _, s := range rep.Stacks {
		if s.Stack == name {
			return s
		}
	}
	t.Fatalf("report has no stack %s", name)
	return report.StackReport{}
}

func (e *env) approve(id, by string) {
	e.t.Helper()
	ctx := context.Background()
	envm, err := flux.Load(ctx, filepath.Join(e.root, "environments", "acme", "dev"))
	if err != nil {
		e.t.Fatal(err)
	}
	set, err := reconcile.Options{StateDir: e.state}.Settings(envm)
	if err != nil {
		e.t.Fatal(err)
	}
	st, err := envstores.OpenStores(ctx, envm, set, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	defer st.Close()
	err = st.Approvals.Approve(ctx, approval.Approval{Client: "acme", Env: "dev", Stack: "app", PlanID: id, By: by, Reason: "reviewed", ApprovedAt: time.Now()})
	if err != nil {
		e.t.Fatalf("Approve(%q) = %v", id, err)
	}
}

func TestPolicyGate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if rep, logs := e.reconcile(history.OperationApply, time.Hour); !rep.Converged() {
		t.Fatalf("first apply failed:\n%s", logs)
	}

	// A plain update is applied on its own.
	setInit(t, e.root, "appSize", "large")
	rep, logs := e.reconcile(history.OperationApply, time.Hour)
	if got := stack(t, rep, "app"); got.Result != history.ResultApplied || got.Policy == nil || !got.Policy.Allowed {
		t.Fatalf("update: app = %+v, want applied and allowed\nlogs:\n%s", got, logs)
	}

	// A replace is held, with its plan kept, and held again the same way.
	setInit(t, e.root, "appGeneration", `"2"`)
	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	held := stack(t, rep, "app")
	if held.Result != history.ResultHeld || held.PlanID == "" || len(held.Policy.Denies) != 1 || held.Policy.Denies[0].Rule != "deny_delete" ||
		held.Policy.Denies[0].Address != "terraform_data.app" {
		t.Fatalf("replace: app = %+v, want held by deny_delete on terraform_data.app\nlogs:\n%s", held, logs)
	}
	if !strings.Contains(logs, "WARN [app] policy: deny_delete denies terraform_data.app") ||
		!strings.Contains(held.Message, "strata approve") || !strings.Contains(held.Message, held.PlanID) {
		t.Errorf("replace: logs and message do not name the rule, the plan id and how to approve:\n%s\n%s", held.Message, logs)
	}
	dir := filepath.Join(e.state, "held", "acme", "dev", "app", held.PlanID)
	for _, f := range []string{approval.PlanFile, approval.JSONFile, approval.SummaryFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("held plan lacks %s: %v", f, err)
		}
	}
	if !rep.Held() || rep.Failed() || rep.Ready() || rep.Converged() {
		t.Errorf("Report Held, Failed, Ready, Converged = %v, %v, %v, %v with a held stack, want true, false, false, false: a hold is not a failure, nor ready",
			rep.Held(), rep.Failed(), rep.Ready(), rep.Converged())
	}
	rep, _ = e.reconcile(history.OperationApply, time.Hour)
	if again := stack(t, rep, "app"); again.Result != history.ResultHeld || again.PlanID != held.PlanID {
		t.Fatalf("replace again: app = %s %s, want held with the same plan id %s", again.Result, again.PlanID, held.PlanID)
	}

	// Approved, the saved plan is applied.
	e.approve(held.PlanID, "ana")
	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	if got := stack(t, rep, "app"); got.Result != history.ResultApplied || got.Summary.Add != 1 || got.Summary.Destroy != 1 {
		t.Fatalf("approved: app = %+v, want applied with 1 added and 1 destroyed\nlogs:\n%s", got, logs)
	}
	if !strings.Contains(logs, "plan "+held.PlanID+" was approved by ana") {
		t.Errorf("approved: logs do not say who approved:\n%s", logs)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("approved plan still held after it was applied (stat = %v)", err)
	}

	// A plan that changes after approval is not applied.
	setInit(t, e.root, "appGeneration", `"3"`)
	rep, _ = e.reconcile(history.OperationApply, time.Hour)
	first := stack(t, rep, "app")
	e.approve(first.PlanID, "ana")
	setInit(t, e.root, "appGeneration", `"4"`)
	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	stale := stack(t, rep, "app")
	if stale.Result != history.ResultHeld || stale.PlanID == first.PlanID {
		t.Fatalf("changed after approval: app = %s %s, want held with a new plan id (approved %s)\nlogs:\n%s", stale.Result, stale.PlanID, first.PlanID, logs)
	}
	if !strings.Contains(logs, "approval of "+first.PlanID+" by ana is stale") {
		t.Errorf("changed after approval: logs do not report the stale approval:\n%s", logs)
	}
}

func TestPolicyFailsClosed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if rep, logs := e.reconcile(history.OperationApply, time.Hour); !rep.Converged() {
		t.Fatalf("first apply failed:\n%s", logs)
	}
	broken := t.TempDir()
	if err := os.WriteFile(filepath.Join(broken, "broken.rego"), []byte("package main\n\ndeny contains msg if {\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.policyDirs = []string{broken}
	// A drift check that finds no change judges no plan: the policies are
	// never loaded, and nothing is held or said about them.
	rep, logs := e.reconcile(history.OperationPlan, 0)
	for _, s := range rep.Stacks {
		if s.Result != history.ResultNoChanges {
			t.Errorf("broken policy, no change: %s = %s (%s), want no-changes\nlogs:\n%s", s.Stack, s.Result, s.Message, logs)
		}
	}
	if strings.Contains(logs, "policy failed to load") {
		t.Errorf("broken policy, no change: logs say the policy failed to load, want it never loaded:\n%s", logs)
	}
	setInit(t, e.root, "appSize", "large")
	setInit(t, e.root, "cidr", "10.30.0.0/16")
	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	// The reconcile says it once, when the first plan needed the policies.
	if n := strings.Count(logs, "every plan with changes is held"); n != 1 {
		t.Errorf("broken policy: logs say %d times that every plan with changes is held, want 1:\n%s", n, logs)
	}
	// Every stack with changes is held: net (variables) and app
	// (variables). A hold blocks nothing downstream, so cluster, which
	// reads net's unchanged contract, runs and has nothing to do.
	for _, name := range []string{"net", "app"} {
		got := stack(t, rep, name)
		if got.Result != history.ResultHeld || !strings.Contains(got.Message, "policy failed to load") || !strings.Contains(got.Message, "broken.rego") {
			t.Errorf("broken policy: %s = %s (%s), want held because the policy failed to load, naming the file\nlogs:\n%s", name, got.Result, got.Message, logs)
		}
	}
	for _, name := range []string{"base", "cluster", "jobs", "report"} {
		if got := stack(t, rep, name); got.Result != history.ResultUnchanged {
			t.Errorf("broken policy: %s = %s, want unchanged: nothing to apply, nothing held", name, got.Result)
		}
	}
}

// TestApprovedPlanGoneStale: the state changed under an approved plan (here
// by hand), so tofu refuses the saved plan. The approval is released rather
// than tried forever, and the next run holds a fresh plan.
func TestApprovedPlanGoneStale(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if rep, logs := e.reconcile(history.OperationApply, time.Hour); !rep.Converged() {
		t.Fatalf("first apply failed:\n%s", logs)
	}
	setInit(t, e.root, "appGeneration", `"2"`)
	rep, _ := e.reconcile(history.OperationApply, time.Hour)
	held := stack(t, rep, "app")
	e.approve(held.PlanID, "ana")

	statePath := filepath.Join(e.state, "state", "acme", "dev", "app.tfstate")
	b, err := os.ReadFile(statePath)
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	st["serial"] = st["serial"].(float64) + 1
	b, _ = json.Marshal(st)
	if err := os.WriteFile(statePath, b, 0o600); err != nil {
		t.Fatal(err)
	}

	rep, logs := e.reconcile(history.OperationApply, time.Hour)
	got := stack(t, rep, "app")
	if got.Result != history.ResultFailed || !strings.Contains(got.Message, "could not be applied, so it was released") {
		t.Fatalf("stale approved plan: app = %s (%s), want failed and released\nlogs:\n%s", got.Result, got.Message, logs)
	}
	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	if again := stack(t, rep, "app"); again.Result != history.ResultHeld {
		t.Errorf("after release: app = %s (%s), want a fresh plan held\nlogs:\n%s", again.Result, again.Message, logs)
	}
}

// TestApprovalFromBeforeKeyedPlanIDs: a plan held and approved under the
// unkeyed id strata gave plans before plan ids were keyed is still applied,
// once, with its saved plan, and the log names both ids.
func TestApprovalFromBeforeKeyedPlanIDs(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if rep, logs := e.reconcile(history.OperationApply, time.Hour); !rep.Converged() {
		t.Fatalf("first apply failed:\n%s", logs)
	}
	setInit(t, e.root, "appGeneration", `"2"`)
	rep, _ := e.reconcile(history.OperationApply, time.Hour)
	held := stack(t, rep, "app")
	if held.Result != history.ResultHeld {
		t.Fatalf("replace: app = %s, want held", held.Result)
	}

	// Turn the hold into one made before the upgrade: the same plan, held
	// under its unkeyed id.
	ctx := context.Background()
	envm, err := flux.Load(ctx, filepath.Join(e.root, "environments", "acme", "dev"))
	if err != nil {
		t.Fatal(err)
	}
	set, err := reconcile.Options{StateDir: e.state}.Settings(envm)
	if err != nil {
		t.Fatal(err)
	}
	st, err := envstores.OpenStores(ctx, envm, set, nil)
	if err != nil {
		t.Fatal(err)
	}
	h, err := st.Approvals.HeldPlan(ctx, "acme", "dev", "app", held.PlanID)
	if err != nil {
		t.Fatal(err)
	}
	planJSON, err := os.ReadFile(filepath.Join(h.Dir, approval.JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	unkeyed, err := policy.UnkeyedPlanID(planJSON)
	if err != nil {
		t.Fatal(err)
	}
	if unkeyed == held.PlanID {
		t.Fatalf("UnkeyedPlanID = %s, the same as the keyed id", unkeyed)
	}
	h.PlanID = unkeyed
	if _, err := st.Approvals.Hold(ctx, h, filepath.Join(h.Dir, approval.PlanFile), planJSON, "held before plan ids were keyed"); err != nil {
		t.Fatal(err)
	}
	if err := st.Approvals.Release(ctx, "acme", "dev", "app", held.PlanID); err != nil {
		t.Fatal(err)
	}
	st.Close()
	e.approve(unkeyed, "ana")

	rep, logs := e.reconcile(history.OperationApply, time.Hour)
	if got := stack(t, rep, "app"); got.Result != history.ResultApplied || got.PlanID != held.PlanID || got.Summary.Add != 1 || got.Summary.Destroy != 1 {
		t.Fatalf("approved before the upgrade: app = %s %s %+v, want applied as %s with 1 added and 1 destroyed\nlogs:\n%s", got.Result, got.PlanID, got.Summary, held.PlanID, logs)
	}
	if want := "plan " + held.PlanID + " was approved by ana"; !strings.Contains(logs, want) || !strings.Contains(logs, "as "+unkeyed+", its id before plan ids were keyed") {
		t.Errorf("approved before the upgrade: logs do not say %q, nor name %s:\n%s", want, unkeyed, logs)
	}
	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	if got := stack(t, rep, "app"); got.Result != history.ResultUnchanged {
		t.Errorf("after the apply: app = %s, want unchanged (applied once)\nlogs:\n%s", got.Result, logs)
	}
}
