package reconcile_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/policy"
)

// reconcileWith runs the environment with the options o, on top of the
// env's tofu, state directory and log.
func (e *env) reconcileWith(op history.Operation, o reconcile.Options) (*report.Report, string) {
	e.t.Helper()
	var logs testkit.Buffer
	o.Tofu, o.StateDir, o.MaxRunners, o.Logger = e.tofu, e.state, 3, runlog.New(&logs, nil)
	rep, err := reconcile.Reconcile(context.Background(), filepath.Join(e.root, "environments", "acme", "dev"), op, o)
	if err != nil {
		e.t.Fatalf("Reconcile(%s) = %v, want nil\nlogs:\n%s", op, err, logs.String())
	}
	return rep, logs.String()
}

// editSpec adds lines to the spec of a stack of the layered fixture, after
// its approvePlan, or replaces that line when add starts with
// "  approvePlan:".
func (e *env) editSpec(stack, group, add string) {
	e.t.Helper()
	file := "flux-apps/" + group + "/" + stack + "/terraform.yaml"
	b, err := os.ReadFile(filepath.Join(e.root, file))
	if err != nil {
		e.t.Fatal(err)
	}
	line := "  approvePlan: auto\n"
	for _, l := range strings.SplitAfter(string(b), "\n") {
		if strings.HasPrefix(l, "  approvePlan:") {
			line = l
		}
	}
	if strings.HasPrefix(add, "  approvePlan:") {
		testkit.EditFile(e.t, e.root, file, line, add)
		return
	}
	testkit.EditFile(e.t, e.root, file, line, line+add)
}

// TestSuspend backs the row of docs/terraform-fields.md of spec.suspend: a suspended stack is
// neither planned nor applied nor recorded, says so, and its dependents
// wait for it as for a stack that is not ready (as the Tofu Controller's
// do: suspending changes the object's generation, which its status never
// catches up with); once resumed, both run.
func TestSuspend(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.editSpec("jobs", "service-stacks", "  suspend: true\n")
	rep, logs := e.reconcile(history.OperationApply, time.Hour)
	want := map[string]string{
		"base": "applied/install", "net": "applied/install", "cluster": "applied/install",
		"app": "applied/install", "jobs": "suspended/", "report": "waiting/",
	}
	if diff := cmp.Diff(want, results(rep)); diff != "" {
		t.Fatalf("apply with jobs suspended: results diff (-want +got):\n%s\nlogs:\n%s", diff, logs)
	}
	for _, line := range []string{
		"INFO [jobs] suspended: spec.suspend is true in flux-apps/service-stacks/jobs/terraform.yaml, so the stack is neither planned nor applied; set it to false to resume",
		`WARN [report] skipped because dependency "jobs" did not succeed: suspended`,
	} {
		if !strings.Contains(logs, line) {
			t.Errorf("apply with jobs suspended: logs lack %q\nlogs:\n%s", line, logs)
		}
	}
	if !rep.Ready() || rep.Failed() || rep.Converged() {
		t.Errorf("report with a suspended stack: Ready, Failed, Converged = %v, %v, %v, want true, false, false", rep.Ready(), rep.Failed(), rep.Converged())
	}
	if runs := historyOf(t, e.root, e.state, "acme", "dev", "jobs"); len(runs) != 0 {
		t.Errorf("history of suspended jobs = %+v, want no run", runs)
	}

	testkit.EditFile(t, e.root, "flux-apps/service-stacks/jobs/terraform.yaml", "  suspend: true\n", "")
	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	if got := results(rep); got["jobs"] != "applied/install" || got["report"] != "applied/install" || got["app"] != "unchanged/" {
		t.Errorf("apply once jobs is resumed: results = %v, want jobs and report installed, app unchanged\nlogs:\n%s", got, logs)
	}
}

// TestStackInterval backs the row of docs/terraform-fields.md of spec.interval: it is the
// stack's own drift interval when --drift-interval is not given
// (StackIntervals), and the flag, when given, holds for every stack.
func TestStackInterval(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	own := reconcile.Options{DriftInterval: time.Hour, StackIntervals: true}
	if rep, logs := e.reconcileWith(history.OperationApply, own); !rep.Converged() {
		t.Fatalf("first apply failed:\n%s", logs)
	}
	testkit.EditFile(t, e.root, "flux-apps/service-stacks/app/terraform.yaml", "  interval: 10m\n", "  interval: 1ns\n")

	rep, logs := e.reconcileWith(history.OperationApply, own)
	want := map[string]string{
		"base": "unchanged/", "net": "unchanged/", "cluster": "unchanged/",
		"app": "no-changes/", "jobs": "unchanged/", "report": "unchanged/",
	}
	if diff := cmp.Diff(want, results(rep)); diff != "" {
		t.Errorf("apply with app's own interval due: results diff (-want +got):\n%s\nlogs:\n%s", diff, logs)
	}
	if !strings.Contains(logs, "INFO [net] up to date: no input changed since run #1; next drift check in 9m") {
		t.Errorf("net's drift check is not due after its own interval, 10m:\n%s", logs)
	}

	rep, logs = e.reconcileWith(history.OperationApply, reconcile.Options{DriftInterval: time.Hour})
	if got := results(rep)["app"]; got != "unchanged/" {
		t.Errorf("apply with --drift-interval 1h: app = %s, want unchanged (the flag wins over spec.interval)\nlogs:\n%s", got, logs)
	}
}

// TestDisableDriftDetection backs the row of docs/terraform-fields.md of
// spec.disableDriftDetection: the stack is not planned for drift alone,
// whatever the drift interval, but is when an input changes.
func TestDisableDriftDetection(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.editSpec("app", "service-stacks", "  disableDriftDetection: true\n")
	if rep, logs := e.reconcile(history.OperationApply, time.Hour); !rep.Converged() {
		t.Fatalf("first apply failed:\n%s", logs)
	}
	rep, logs := e.reconcile(history.OperationApply, 0)
	if got := results(rep); got["app"] != "unchanged/" || got["jobs"] != "no-changes/" {
		t.Errorf("apply with --drift-interval 0: results = %v, want app unchanged and every other stack drift-checked\nlogs:\n%s", got, logs)
	}
	if !strings.Contains(logs, "INFO [app] up to date: no input changed since run #1; drift detection is disabled (spec.disableDriftDetection)") {
		t.Errorf("logs do not say why app was not planned:\n%s", logs)
	}
	setInit(t, e.root, "appSize", "large")
	rep, logs = e.reconcile(history.OperationApply, 0)
	if got := results(rep)["app"]; got != "applied/variables" {
		t.Errorf("apply after app's size changed: app = %s, want applied/variables\nlogs:\n%s", got, logs)
	}
}

// TestRetryInterval backs the row of docs/terraform-fields.md of spec.retryInterval: in the
// reconcile loop (RetryWait), a stack whose last run failed is not run
// again before its retry interval (the Tofu Controller's 15s when unset)
// has passed, and stays failed; a one-shot apply runs it at once.
func TestRetryInterval(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	testkit.EditFile(t, e.root, "flux-apps/service-stacks/app/terraform/main.tf", "resource \"terraform_data\" \"app\" {",
		"resource \"terraform_data\" \"broken\" {\n  input = file(\"no-such-file\")\n}\n\nresource \"terraform_data\" \"app\" {")
	e.editSpec("app", "service-stacks", "  retryInterval: 1h\n")
	rep, logs := e.reconcile(history.OperationApply, time.Hour)
	if got := stack(t, rep, "app"); got.Result != history.ResultFailed || got.Run != 1 {
		t.Fatalf("first apply: app = %+v, want run #1 failed\nlogs:\n%s", got, logs)
	}

	loop := reconcile.Options{DriftInterval: time.Hour, RetryWait: true}
	rep, logs = e.reconcileWith(history.OperationApply, loop)
	got := stack(t, rep, "app")
	if got.Result != history.ResultFailed || got.Run != 0 || !strings.HasPrefix(got.Message, "run #1 failed; retried 1h0m0s after it (spec.retryInterval), in ") {
		t.Errorf("loop within the retry interval: app = %+v, want failed, unrecorded, waiting out spec.retryInterval\nlogs:\n%s", got, logs)
	}
	if runs := historyOf(t, e.root, e.state, "acme", "dev", "app"); len(runs) != 1 {
		t.Errorf("history of app = %d runs, want 1: a retry that waits records nothing", len(runs))
	}

	testkit.EditFile(t, e.root, "flux-apps/service-stacks/app/terraform.yaml", "  retryInterval: 1h\n", "")
	rep, logs = e.reconcileWith(history.OperationApply, loop)
	if got := stack(t, rep, "app"); got.Run != 0 || !strings.Contains(got.Message, "(the default retry interval)") {
		t.Errorf("loop within the default 15s: app = %+v, want it waiting\nlogs:\n%s", got, logs)
	}

	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	if got := stack(t, rep, "app"); got.Result != history.ResultFailed || got.Run != 2 {
		t.Errorf("one-shot apply: app = %+v, want run #2, failed again\nlogs:\n%s", got, logs)
	}
}

// TestApprovePlan backs the row of docs/terraform-fields.md of approvePlan, with the Tofu
// Controller's four values: disable plans and reports, never holds nor
// applies, and publishes nothing; empty holds the plan; the held plan's id
// applies that plan; auto lets policy decide.
func TestApprovePlan(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.editSpec("app", "service-stacks", "  approvePlan: disable\n")
	rep, logs := e.reconcile(history.OperationApply, time.Hour)
	got := stack(t, rep, "app")
	if got.Result != history.ResultPlanned || got.Summary.Add != 1 || got.Message != "plan: 1 to add, 0 to change, 0 to destroy; not applied, as spec.approvePlan is disable (drift detection only)" {
		t.Errorf("apply with approvePlan disable: app = %+v, want planned, not applied\nlogs:\n%s", got, logs)
	}
	if !strings.Contains(logs, `INFO [app] run #1 started {"operation": "apply", "mode": "disable"`) {
		t.Errorf("logs lack app's mode disable:\n%s", logs)
	}
	if _, err := os.Stat(filepath.Join(e.state, "contracts", "acme", "dev", "configuration", "app.json")); err == nil {
		t.Errorf("app published a contract, though it only detects drift")
	}

	e.editSpec("app", "service-stacks", "  approvePlan: \"\"\n")
	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	held := stack(t, rep, "app")
	if held.Result != history.ResultHeld || held.PlanID == "" || !strings.Contains(held.Message, `spec.approvePlan of Terraform/app (flux-apps/service-stacks/app/terraform.yaml) is "", not "auto"`) {
		t.Fatalf("apply with approvePlan empty: app = %+v, want its plan held\nlogs:\n%s", held, logs)
	}

	e.editSpec("app", "service-stacks", "  approvePlan: "+held.PlanID+"\n")
	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	if got := results(rep)["app"]; got != "applied/install" || !strings.Contains(logs, "plan "+held.PlanID+" is approved by spec.approvePlan of Terraform/app") {
		t.Errorf("apply with approvePlan %s: app = %s, want that plan applied\nlogs:\n%s", held.PlanID, got, logs)
	}

	e.editSpec("app", "service-stacks", "  approvePlan: disable\n")
	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	if got := stack(t, rep, "app"); got.Result != history.ResultNoChanges || !strings.Contains(got.Message, "drift detection only") {
		t.Errorf("apply with approvePlan disable again: app = %+v, want no-changes: switching to disable re-plans it, and nothing drifted\nlogs:\n%s", got, logs)
	}
	before := readContract(t, e.state, "acme", "dev", "app")
	setInit(t, e.root, "appSize", "large")
	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	if got := stack(t, rep, "app"); got.Result != history.ResultPlanned || got.Summary.Change != 1 {
		t.Errorf("apply with approvePlan disable and a new size: app = %+v, want the change planned, not applied\nlogs:\n%s", got, logs)
	}
	if after := readContract(t, e.state, "acme", "dev", "app"); !cmp.Equal(before, after) {
		t.Errorf("app's contract changed under approvePlan disable: %+v, was %+v", after, before)
	}

	e.editSpec("app", "service-stacks", "  approvePlan: auto\n")
	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	if got := results(rep)["app"]; got != "applied/variables" {
		t.Errorf("apply with approvePlan auto: app = %s, want applied/variables\nlogs:\n%s", got, logs)
	}
}

// holdApp applies with app's spec.approvePlan empty, and returns app's
// run, its plan held.
func (e *env) holdApp() report.StackReport {
	e.t.Helper()
	e.editSpec("app", "service-stacks", "  approvePlan: \"\"\n")
	rep, logs := e.reconcile(history.OperationApply, time.Hour)
	held := stack(e.t, rep, "app")
	if held.Result != history.ResultHeld {
		e.t.Fatalf("apply with approvePlan empty: app = %+v, want its plan held\nlogs:\n%s", held, logs)
	}
	return held
}

// TestApprovePlanPrefix: spec.approvePlan names a held plan by a prefix of
// its id, as the Tofu Controller approves a pending plan (shouldApply), of at
// least approval.MinPrefix characters: "plan-" alone approves nothing.
func TestApprovePlanPrefix(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	held := e.holdApp()
	e.editSpec("app", "service-stacks", "  approvePlan: plan-\n")
	rep, logs := e.reconcile(history.OperationApply, time.Hour)
	if got := stack(t, rep, "app"); got.Result != history.ResultHeld || got.PlanID != held.PlanID {
		t.Fatalf("apply with approvePlan plan-: app = %+v, want plan %s still held\nlogs:\n%s", got, held.PlanID, logs)
	}
	prefix := held.PlanID[:approval.MinPrefix]
	e.editSpec("app", "service-stacks", "  approvePlan: "+prefix+"\n")
	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	want := fmt.Sprintf("plan %s is approved by spec.approvePlan of Terraform/app, %s, a prefix of its id", held.PlanID, prefix)
	if got := results(rep)["app"]; got != "applied/install" || !strings.Contains(logs, want) {
		t.Errorf("apply with approvePlan %s: app = %s, want that plan applied and the log to say %q\nlogs:\n%s", prefix, got, want, logs)
	}
}

// TestApprovePlanUnkeyedID: a spec.approvePlan written before plan ids were
// keyed names the plan by its unkeyed id; the same plan is still applied,
// and the log gives the id to write instead.
func TestApprovePlanUnkeyedID(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	held := e.holdApp()
	planJSON, err := os.ReadFile(filepath.Join(e.state, "held", "acme", "dev", "app", held.PlanID, approval.JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	unkeyed, err := policy.UnkeyedPlanID(planJSON)
	if err != nil {
		t.Fatal(err)
	}
	e.editSpec("app", "service-stacks", "  approvePlan: "+unkeyed+"\n")
	rep, logs := e.reconcile(history.OperationApply, time.Hour)
	want := fmt.Sprintf("plan %s is approved by spec.approvePlan of Terraform/app, which names it by the id it had before plan ids were keyed (%s); write approvePlan: %s", held.PlanID, unkeyed, held.PlanID)
	if got := results(rep)["app"]; got != "applied/install" || !strings.Contains(logs, want) {
		t.Errorf("apply with approvePlan %s: app = %s, want that plan applied and the log to say %q\nlogs:\n%s", unkeyed, got, want, logs)
	}
}

// TestRetryBackoff backs spec.retryStrategy: ExponentialBackoff: after
// two failures in a row the loop waits twice 2 × retryInterval (capped by
// spec.maxRetryInterval), and says so.
func TestRetryBackoff(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	testkit.EditFile(t, e.root, "flux-apps/service-stacks/app/terraform/main.tf", "resource \"terraform_data\" \"app\" {",
		"resource \"terraform_data\" \"broken\" {\n  input = file(\"no-such-file\")\n}\n\nresource \"terraform_data\" \"app\" {")
	e.editSpec("app", "service-stacks", "  retryInterval: 10m\n  retryStrategy: ExponentialBackoff\n  maxRetryInterval: 30m\n")
	for run := 1; run <= 2; run++ {
		rep, logs := e.reconcile(history.OperationApply, time.Hour)
		if got := stack(t, rep, "app"); got.Result != history.ResultFailed || got.Run != run {
			t.Fatalf("apply %d: app = %+v, want run #%d failed\nlogs:\n%s", run, got, run, logs)
		}
	}
	loop := reconcile.Options{DriftInterval: time.Hour, RetryWait: true}
	rep, logs := e.reconcileWith(history.OperationApply, loop)
	got := stack(t, rep, "app")
	want := "run #2 failed; retried 30m0s after it (spec.retryInterval, doubled for each of 2 failures in a row (spec.retryStrategy: ExponentialBackoff)), in "
	if got.Result != history.ResultFailed || got.Run != 0 || !strings.HasPrefix(got.Message, want) {
		t.Errorf("loop after two failures: app = %+v, want it waiting 4 × 10m capped at 30m: %q\nlogs:\n%s", got, want, logs)
	}
}
