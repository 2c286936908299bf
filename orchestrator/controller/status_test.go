package controller

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/policy"
)

// TestApplyReport checks the status written for each result a stack can
// end a reconcile with: the Tofu Controller's conditions, reasons and
// fields for the same outcome.
func TestApplyReport(t *testing.T) {
	const rev = "0.1.0@sha256:abc"
	now := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	type cond struct{ Type, Status, Reason string }
	tests := []struct {
		name       string
		report     report.StackReport
		prev       v1alpha2.TerraformStatus
		out        outputs
		wantEvent  string
		wantReady  string
		wantConds  []cond
		wantPlan   v1alpha2.PlanStatus
		wantApplRv string
		// auto sets spec.approvePlan: auto; spec, when set, is the spec.
		auto bool
		spec *v1alpha2.TerraformSpec
		// wantDrift: status.lastDriftDetectedAt is set.
		wantDrift bool
	}{
		{
			name:      "applied, outputs written",
			report:    report.StackReport{Result: history.ResultApplied, PlanID: "plan-1"},
			prev:      v1alpha2.TerraformStatus{Plan: v1alpha2.PlanStatus{Pending: "plan-1"}},
			out:       outputs{names: []string{"vpc_id"}, written: true},
			wantEvent: "Normal", wantReady: "Outputs written: " + rev,
			wantConds: []cond{
				{"Ready", "True", v1alpha2.ReasonOutputsWritten},
				{"Apply", "True", v1alpha2.ReasonApplySucceeded},
				{"Output", "True", v1alpha2.ReasonOutputsWritten},
				{"Plan", "True", v1alpha2.ReasonPlannedWithChanges},
			},
			wantPlan: v1alpha2.PlanStatus{LastApplied: "plan-1"}, wantApplRv: rev,
		},
		{
			name:      "held for approval",
			report:    report.StackReport{Result: history.ResultHeld, PlanID: "plan-2", Message: "plan plan-2 held for approval: spec.approvePlan is \"\", not \"auto\"; review …"},
			prev:      v1alpha2.TerraformStatus{LastAppliedRevision: "old", Plan: v1alpha2.PlanStatus{LastApplied: "plan-1"}},
			wantEvent: "Normal", wantReady: `Plan generated: set approvePlan: "plan-2" to approve this plan.`,
			wantConds: []cond{
				{"Ready", "Unknown", v1alpha2.ReasonPlannedWithChanges},
				{"Plan", "True", v1alpha2.ReasonPlannedWithChanges},
			},
			wantPlan: v1alpha2.PlanStatus{LastApplied: "plan-1", Pending: "plan-2"}, wantApplRv: "old",
		},
		{
			name: "held by policy under approvePlan auto",
			report: report.StackReport{Result: history.ResultHeld, PlanID: "plan-2", Message: "plan plan-2 held for approval: …",
				Policy: &report.PolicyReport{Denies: []policy.Finding{{Rule: "deny_delete", Message: "deletes aws_s3_bucket.logs"}}}},
			auto:      true,
			prev:      v1alpha2.TerraformStatus{LastAppliedRevision: "old", Plan: v1alpha2.PlanStatus{LastApplied: "plan-1"}},
			wantEvent: "Normal", wantReady: `Plan generated: set approvePlan: "plan-2" to approve this plan. Held by strata's policy (deny_delete: deletes aws_s3_bucket.logs); start strata controller with --no-default-policy to apply as the Tofu Controller does.`,
			wantConds: []cond{
				{"Ready", "Unknown", v1alpha2.ReasonPlannedWithChanges},
				{"Plan", "True", v1alpha2.ReasonPlannedWithChanges},
			},
			wantPlan: v1alpha2.PlanStatus{LastApplied: "plan-1", Pending: "plan-2"}, wantApplRv: "old",
		},
		{
			name:      "destroy held",
			report:    report.StackReport{Result: history.ResultHeld, PlanID: "plan-3", Cause: runner.CauseRemoved},
			wantEvent: "Normal", wantReady: `Plan generated: set approvePlan: "plan-3" to approve this plan.`,
			wantConds: []cond{{"Ready", "Unknown", v1alpha2.ReasonPlannedWithChanges}, {"Plan", "True", v1alpha2.ReasonPlannedWithChanges}},
			wantPlan:  v1alpha2.PlanStatus{Pending: "plan-3", IsDestroyPlan: true},
		},
		{
			name:      "no changes",
			report:    report.StackReport{Result: history.ResultNoChanges},
			prev:      v1alpha2.TerraformStatus{Plan: v1alpha2.PlanStatus{LastApplied: "plan-1", Pending: "plan-9"}},
			wantEvent: "Normal", wantReady: "Plan no changes: " + rev,
			wantConds: []cond{{"Ready", "True", v1alpha2.ReasonPlannedNoChanges}, {"Plan", "False", v1alpha2.ReasonPlannedNoChanges}},
			wantPlan:  v1alpha2.PlanStatus{LastApplied: "plan-1"},
		},
		{
			name:      "up to date",
			report:    report.StackReport{Result: history.ResultUnchanged},
			prev:      v1alpha2.TerraformStatus{LastAppliedRevision: "0.0.9@sha256:old"},
			wantEvent: "Normal", wantReady: "No drift: " + rev,
			wantConds:  []cond{{"Ready", "True", v1alpha2.ReasonNoDrift}},
			wantApplRv: "0.0.9@sha256:old",
		},
		{
			name:      "up to date, the apply's status lost",
			report:    report.StackReport{Result: history.ResultUnchanged},
			wantEvent: "Normal", wantReady: "No drift: " + rev,
			wantConds:  []cond{{"Ready", "True", v1alpha2.ReasonNoDrift}, {"Apply", "True", v1alpha2.ReasonApplySucceeded}},
			wantApplRv: rev,
		},
		{
			name:      "waiting for an upstream",
			report:    report.StackReport{Result: history.ResultWaiting, Message: "waiting for contract network"},
			wantEvent: "Normal", wantReady: "waiting for contract network",
			wantConds: []cond{{"Ready", "False", v1alpha2.ReasonDependencyNotReady}},
		},
		{
			name:      "plan failed",
			report:    report.StackReport{Result: history.ResultFailed, Run: 2, Digest: "sha256:abc", Message: "plan: exit status 1"},
			wantEvent: "Warning", wantReady: "plan: exit status 1",
			wantConds: []cond{{"Ready", "False", v1alpha2.ReasonPlanFailed}, {"Plan", "False", v1alpha2.ReasonPlanFailed}},
		},
		{
			name:      "apply failed",
			report:    report.StackReport{Result: history.ResultFailed, Run: 2, Digest: "sha256:abc", PlanID: "plan-4", Message: "apply: exit status 1"},
			prev:      v1alpha2.TerraformStatus{Plan: v1alpha2.PlanStatus{Pending: "plan-4"}},
			wantEvent: "Warning", wantReady: "apply: exit status 1",
			wantConds: []cond{{"Ready", "False", v1alpha2.ReasonApplyFailed}, {"Apply", "False", v1alpha2.ReasonAppliedFail}},
		},
		{
			name:      "drift held in manual mode",
			report:    report.StackReport{Result: history.ResultHeld, PlanID: "plan-5", Cause: runner.CauseDrift, Summary: history.Summary{Add: 1}, Changes: []string{"create terraform_data.a"}},
			prev:      v1alpha2.TerraformStatus{LastAppliedRevision: rev, Plan: v1alpha2.PlanStatus{LastApplied: "plan-1"}},
			wantEvent: "Warning", wantReady: `Drift detected: 1 to add, 0 to change, 0 to destroy: create terraform_data.a. Set approvePlan: "plan-5" to undo it.`,
			wantConds: []cond{{"Ready", "False", v1alpha2.ReasonDriftDetected}, {"Plan", "True", v1alpha2.ReasonPlannedWithChanges}},
			wantPlan:  v1alpha2.PlanStatus{LastApplied: "plan-1", Pending: "plan-5"}, wantApplRv: rev, wantDrift: true,
		},
		{
			name: "drift in tofu's words, held in manual mode",
			report: report.StackReport{Result: history.ResultHeld, PlanID: "plan-5", Cause: runner.CauseDrift, Summary: history.Summary{Add: 1}, Changes: []string{"create terraform_data.a"},
				DriftText: "\nOpenTofu used the selected providers to generate the following execution\nplan.\n"},
			prev:      v1alpha2.TerraformStatus{LastAppliedRevision: rev, Plan: v1alpha2.PlanStatus{LastApplied: "plan-1"}},
			wantEvent: "Warning", wantReady: "\nOpenTofu used the selected providers to generate the following execution\nplan.\n\nSet approvePlan: \"plan-5\" to undo it.",
			wantConds: []cond{{"Ready", "False", v1alpha2.ReasonDriftDetected}, {"Plan", "True", v1alpha2.ReasonPlannedWithChanges}},
			wantPlan:  v1alpha2.PlanStatus{LastApplied: "plan-1", Pending: "plan-5"}, wantApplRv: rev, wantDrift: true,
		},
		{
			name:      "drift in drift detection only mode",
			report:    report.StackReport{Result: history.ResultPlanned, Cause: runner.CauseConfig, Summary: history.Summary{Change: 2}},
			spec:      &v1alpha2.TerraformSpec{ApprovePlan: v1alpha2.ApprovePlanDisable},
			wantEvent: "Warning", wantReady: "Drift detected: 0 to add, 2 to change, 0 to destroy",
			wantConds: []cond{{"Ready", "False", v1alpha2.ReasonDriftDetected}},
			wantDrift: true,
		},
		{
			name:      "drift applied under auto",
			report:    report.StackReport{Result: history.ResultApplied, PlanID: "plan-6", Cause: runner.CauseDrift},
			auto:      true,
			wantEvent: "Normal", wantReady: "Applied successfully: " + rev,
			wantConds: []cond{
				{"Ready", "True", v1alpha2.ReasonApplySucceeded},
				{"Apply", "True", v1alpha2.ReasonApplySucceeded},
				{"Plan", "True", v1alpha2.ReasonPlannedWithChanges},
			},
			wantPlan: v1alpha2.PlanStatus{LastApplied: "plan-6"}, wantApplRv: rev, wantDrift: true,
		},
		{
			name:      "up to date, drift detection disabled",
			report:    report.StackReport{Result: history.ResultUnchanged},
			prev:      v1alpha2.TerraformStatus{LastAppliedRevision: rev},
			spec:      &v1alpha2.TerraformSpec{DisableDriftDetection: true},
			wantEvent: "Normal", wantReady: "Applied successfully: " + rev,
			wantConds:  []cond{{"Ready", "True", v1alpha2.ReasonApplySucceeded}},
			wantApplRv: rev,
		},
		{
			name:      "source not fetched",
			report:    report.StackReport{Result: history.ResultFailed, Message: "OCIRepository app has no artifact yet"},
			wantEvent: "Warning", wantReady: "OCIRepository app has no artifact yet",
			wantConds: []cond{{"Ready", "False", v1alpha2.ReasonArtifactFailed}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tf := &v1alpha2.Terraform{Status: tt.prev}
			if tt.spec != nil {
				tf.Spec = *tt.spec
			}
			if tt.auto {
				tf.Spec.ApprovePlan = v1alpha2.ApprovePlanAuto
			}
			typ, _, msg := applyReport(tf, &tt.report, rev, tt.out, now)
			if typ != tt.wantEvent || msg != tt.wantReady {
				t.Errorf("applyReport(%s) event = %s %q, want %s %q", tt.report.Result, typ, msg, tt.wantEvent, tt.wantReady)
			}
			var got []cond
			for _, c := range tf.Status.Conditions {
				got = append(got, cond{c.Type, string(c.Status), c.Reason})
			}
			if diff := cmp.Diff(tt.wantConds, got); diff != "" {
				t.Errorf("applyReport(%s) conditions mismatch (-want +got):\n%s", tt.report.Result, diff)
			}
			if diff := cmp.Diff(tt.wantPlan, tf.Status.Plan); diff != "" {
				t.Errorf("applyReport(%s) status.plan mismatch (-want +got):\n%s", tt.report.Result, diff)
			}
			if tf.Status.LastAppliedRevision != tt.wantApplRv {
				t.Errorf("applyReport(%s) lastAppliedRevision = %q, want %q", tt.report.Result, tf.Status.LastAppliedRevision, tt.wantApplRv)
			}
			if tf.Status.LastAttemptedRevision != rev {
				t.Errorf("applyReport(%s) lastAttemptedRevision = %q, want %q", tt.report.Result, tf.Status.LastAttemptedRevision, rev)
			}
			if got := tf.Status.LastDriftDetectedAt != nil; got != tt.wantDrift {
				t.Errorf("applyReport(%s) lastDriftDetectedAt set = %v, want %v", tt.report.Result, got, tt.wantDrift)
			}
			if r := findReady(tf); r != nil && r.Message != tt.wantReady {
				t.Errorf("applyReport(%s) Ready message = %q, want %q", tt.report.Result, r.Message, tt.wantReady)
			}
		})
	}
}

func findReady(tf *v1alpha2.Terraform) *metav1.Condition {
	for i := range tf.Status.Conditions {
		if tf.Status.Conditions[i].Type == v1alpha2.ConditionReady {
			return &tf.Status.Conditions[i]
		}
	}
	return nil
}

// TestWritesStatus checks that a suspended or orphaned stack leaves its
// object's status as it is, as the Tofu Controller does.
func TestWritesStatus(t *testing.T) {
	tests := []struct {
		report *report.StackReport
		want   bool
	}{
		{nil, false},
		{&report.StackReport{Result: history.ResultSuspended}, false},
		{&report.StackReport{Result: history.ResultOrphaned, Cause: runner.CauseRemoved}, false},
		{&report.StackReport{Result: history.ResultWaiting}, true},
		{&report.StackReport{Result: history.ResultApplied}, true},
		{&report.StackReport{Result: history.ResultFailed}, true},
	}
	for _, tt := range tests {
		name := "nil"
		if tt.report != nil {
			name = string(tt.report.Result)
		}
		t.Run(name, func(t *testing.T) {
			if got := writesStatus(tt.report); got != tt.want {
				t.Errorf("writesStatus(%s) = %v, want %v", name, got, tt.want)
			}
		})
	}
}

// TestHeldStatus checks the Ready condition of an object its load held
// back: the Tofu Controller's reason for the check that fails first,
// strata's ValidationFailed where it has none; the problem and its fix,
// or for a dependency the Tofu Controller's words and why that one waits.
func TestHeldStatus(t *testing.T) {
	own := func(code, msg string) diag.Problem {
		return diag.Problem{Stack: "app", Code: code, Message: msg, Fix: "fix " + msg}
	}
	app := &v1alpha2.Terraform{ObjectMeta: metav1.ObjectMeta{Name: "app", Namespace: "ns"}}
	web := &v1alpha2.Terraform{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns"},
		Spec: v1alpha2.TerraformSpec{DependsOn: []v1alpha2.NamespacedObjectReference{{Name: "db"}, {Name: "app"}}}}
	appHeld := environment.Blocked{Stack: "app", Problems: diag.Problems{own(diag.CodeSourceNotFound, "no source")}}
	tests := []struct {
		name          string
		tf            *v1alpha2.Terraform
		b             environment.Blocked
		wantType      string
		want, wantMsg string
	}{
		{"source missing", app, appHeld, "Warning", v1alpha2.ReasonArtifactFailed, "no source (fix: fix no source)"},
		{"cross-namespace source, with another problem", app, environment.Blocked{Stack: "app", Problems: diag.Problems{own("", "refused"), own(diag.CodeAccessDenied, "denied")}},
			"Warning", v1alpha2.ReasonAccessDenied, "denied"},
		{"varsFrom Secret missing", app, environment.Blocked{Stack: "app", Waiting: true, Problems: diag.Problems{own(diag.CodeInputMissing, "no secret")}},
			"Warning", v1alpha2.ReasonVarsGenerationFailed, "no secret (fix: fix no secret)"},
		{"refused field", app, environment.Blocked{Stack: "app", Problems: diag.Problems{own("", "refused")}}, "Warning", ReasonValidationFailed, "refused (fix: fix refused)"},
		{"dependency held", web, environment.Blocked{Stack: "web", Reason: "it depends on stack app", Problems: appHeld.Problems},
			"Normal", v1alpha2.ReasonDependencyNotReady, "dependency 'ns/app' is not ready: no source (fix: fix no source)"},
		{"contract of a held stack", app, environment.Blocked{Stack: "db", Reason: "it reads contract app", Problems: appHeld.Problems},
			"Normal", v1alpha2.ReasonDependencyNotReady, "it reads contract app"},
	}
	held := map[string]environment.Blocked{"app": appHeld}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			typ, reason, msg := heldStatus(tt.tf, tt.b, held)
			if typ != tt.wantType || reason != tt.want || msg != tt.wantMsg {
				t.Errorf("heldStatus(%s, %v) = %s, %s, %q, want %s, %s, %q", tt.tf.Name, tt.b, typ, reason, msg, tt.wantType, tt.want, tt.wantMsg)
			}
		})
	}
}

func TestLockStatus(t *testing.T) {
	const id = "f2ab685b-f84d-ac0b-a125-378a22877e8d"
	locked := metav1.Condition{Type: v1alpha2.ConditionStateLocked, Status: metav1.ConditionTrue, Reason: v1alpha2.ReasonLockHeld}
	tests := []struct {
		name       string
		report     report.StackReport
		prev       v1alpha2.TerraformStatus
		wantReason string
		// wantCond is the StateLocked condition's status and reason; ""
		// when there is none.
		wantCond string
		wantLock v1alpha2.LockStatus
	}{
		{
			name:       "failed on a held lock",
			report:     report.StackReport{Run: 3, Result: history.ResultFailed, Lock: &history.StateLock{Held: id}},
			wantReason: v1alpha2.ReasonLockHeld, wantCond: "True " + v1alpha2.ReasonLockHeld,
			wantLock: v1alpha2.LockStatus{Pending: id},
		},
		{
			name:     "another lock held than the one pending",
			report:   report.StackReport{Run: 3, Result: history.ResultFailed, Lock: &history.StateLock{Held: id}},
			prev:     v1alpha2.TerraformStatus{Lock: v1alpha2.LockStatus{Pending: "older"}, Conditions: []metav1.Condition{locked}},
			wantCond: "True " + v1alpha2.ReasonLockHeld, wantReason: v1alpha2.ReasonLockHeld,
			wantLock: v1alpha2.LockStatus{Pending: id, LastApplied: "older"},
		},
		{
			name:     "released",
			report:   report.StackReport{Run: 4, Result: history.ResultNoChanges, Lock: &history.StateLock{Released: id}},
			prev:     v1alpha2.TerraformStatus{Lock: v1alpha2.LockStatus{Pending: id}, Conditions: []metav1.Condition{locked}},
			wantCond: "False " + v1alpha2.ReasonForceUnlock,
			wantLock: v1alpha2.LockStatus{LastApplied: id},
		},
		{
			name:   "a later run meets no lock",
			report: report.StackReport{Run: 5, Result: history.ResultNoChanges},
			prev:   v1alpha2.TerraformStatus{Lock: v1alpha2.LockStatus{LastApplied: id}, Conditions: []metav1.Condition{{Type: v1alpha2.ConditionStateLocked, Status: metav1.ConditionFalse, Reason: v1alpha2.ReasonForceUnlock}}},
		},
		{
			name:     "a failure of something else leaves it",
			report:   report.StackReport{Run: 5, Result: history.ResultFailed},
			prev:     v1alpha2.TerraformStatus{Lock: v1alpha2.LockStatus{Pending: id}, Conditions: []metav1.Condition{locked}},
			wantCond: "True " + v1alpha2.ReasonLockHeld,
			wantLock: v1alpha2.LockStatus{Pending: id},
		},
		{
			name:     "nothing ran",
			report:   report.StackReport{Result: history.ResultUnchanged},
			prev:     v1alpha2.TerraformStatus{Lock: v1alpha2.LockStatus{Pending: id}, Conditions: []metav1.Condition{locked}},
			wantCond: "True " + v1alpha2.ReasonLockHeld,
			wantLock: v1alpha2.LockStatus{Pending: id},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tf := &v1alpha2.Terraform{Status: tt.prev}
			reason, msg := lockStatus(tf, &tt.report)
			if reason != tt.wantReason || (reason != "" && !strings.Contains(msg, id)) {
				t.Errorf("lockStatus(%s) = %q, %q, want %q naming the lock", tt.name, reason, msg, tt.wantReason)
			}
			got := ""
			if c := apimeta.FindStatusCondition(tf.Status.Conditions, v1alpha2.ConditionStateLocked); c != nil {
				got = string(c.Status) + " " + c.Reason
			}
			if got != tt.wantCond {
				t.Errorf("lockStatus(%s) StateLocked = %q, want %q", tt.name, got, tt.wantCond)
			}
			if diff := cmp.Diff(tt.wantLock, tf.Status.Lock); diff != "" {
				t.Errorf("lockStatus(%s) status.lock mismatch (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}
