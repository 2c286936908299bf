package controller

import (
	"context"
	"fmt"
	"time"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// strata's own reasons, where the Tofu Controller has none.
const (
	// ReasonValidationFailed: the namespace's objects have problems that
	// strata validate would report; nothing runs.
	ReasonValidationFailed = "ValidationFailed"
	// ReasonApproved and ReasonApprovalFailed: spec.approvePlan approved
	// a held plan, or could not.
	ReasonApproved       = "PlanApproved"
	ReasonApprovalFailed = "PlanApprovalFailed"
)

// writeStatus writes, for every object the reconcile ran, the status the
// Tofu Controller would write for the same outcome, and an Event when its
// Ready condition changed. The objects whose status it wrote are noted
// (pass.written): their runs may be released.
func (c *Controller) writeStatus(ctx context.Context, p *pass) error {
	p.written = map[string]bool{}
	for _, tf := range sortedObjects(p.tfs) {
		sr := p.stacks[tf.Name]
		if !writesStatus(sr) {
			continue
		}
		rev := tf.Status.LastAttemptedRevision
		if s := p.env.Stack(tf.Name); s != nil && s.Source.Artifact != nil && s.Source.Artifact.Revision != "" {
			rev = s.Source.Artifact.Revision
		}
		prev := readyOf(tf)
		typ, reason, msg := applyReport(tf, sr, rev, p.outputs[tf.Name], time.Now())
		if sr.Result == history.ResultFailed && p.wasRefused(tf.Name) {
			// Nothing was planned: no runner pod ran.
			reason = ReasonRunnerPodRefused
			setReady(tf, false, reason, msg, rev)
		}
		if c.writeObjectStatus(ctx, tf, prev, typ, reason, msg) == nil {
			p.written[tf.Name] = true
		}
	}
	return nil
}

// writesStatus reports whether a stack's report changes its object's
// status. As the Tofu Controller leaves a suspended object's status
// alone (its observed generation then stays behind, so its dependents
// wait), and lets an object deleted without destroyResourcesOnDeletion go
// without a word, a suspended or orphaned stack writes none.
func writesStatus(sr *report.StackReport) bool {
	return sr != nil && sr.Result != history.ResultSuspended && sr.Result != history.ResultOrphaned
}

// writeObjectStatus writes the object's status, and an Event when its
// Ready condition's reason or message differs from prev, what it was. The
// Event goes first: a leader lost between the two leaves the status
// unwritten (and the run unreleased), and the next one writes both; the
// other way round, the status would already say what the Event says, and
// the Event would never be recorded. An error (logged) means the status
// was not written.
func (c *Controller) writeObjectStatus(ctx context.Context, tf *v1alpha2.Terraform, prev *metav1.Condition, typ, reason, msg string) error {
	if prev == nil || prev.Reason != reason || prev.Message != msg {
		c.event(ctx, tf, typ, reason, msg)
	}
	tf.Status.ObservedGeneration = tf.Generation
	if err := c.cfg.Cluster.UpdateStatus(ctx, tf); err != nil {
		c.log.Error(err.Error(), "namespace", tf.Namespace)
		return err
	}
	return nil
}

// readyOf returns a copy of the object's Ready condition, or nil.
func readyOf(tf *v1alpha2.Terraform) *metav1.Condition {
	if c := apimeta.FindStatusCondition(tf.Status.Conditions, v1alpha2.ConditionReady); c != nil {
		cp := *c
		return &cp
	}
	return nil
}

// outputs are what the controller wrote of a stack's outputs.
type outputs struct {
	// names are the outputs available, sorted.
	names []string
	// written is set when they were written to the Secret
	// spec.writeOutputsToSecret names.
	written bool
}

// applyReport sets the object's status from what its stack did, in the
// Tofu Controller's conditions, reasons and fields. It returns the Event
// to record: its type, reason and message.
func applyReport(tf *v1alpha2.Terraform, sr *report.StackReport, rev string, out outputs, now time.Time) (typ, reason, msg string) {
	st := &tf.Status
	at := metav1.NewTime(now)
	destroy := sr.Cause == runner.CauseRemoved
	switch sr.Result {
	case history.ResultApplied:
		setCondition(tf, v1alpha2.ConditionPlan, metav1.ConditionTrue, v1alpha2.ReasonPlannedWithChanges, "Plan generated")
		setCondition(tf, v1alpha2.ConditionApply, metav1.ConditionTrue, v1alpha2.ReasonApplySucceeded, "Applied successfully")
		st.Plan = v1alpha2.PlanStatus{LastApplied: sr.PlanID, IsDestroyPlan: destroy}
		st.LastAppliedRevision, st.LastPlannedRevision, st.LastPlanAt = rev, rev, &at
		st.ReconciliationFailures = 0
		reason, msg = v1alpha2.ReasonApplySucceeded, "Applied successfully: "+rev
		if destroy {
			msg = "Destroyed successfully: " + rev
		}
		reason, msg = outputsReady(tf, out, reason, msg, rev)
		setReady(tf, true, reason, msg, rev)
		return "Normal", reason, msg
	case history.ResultNoChanges:
		setCondition(tf, v1alpha2.ConditionPlan, metav1.ConditionFalse, v1alpha2.ReasonPlannedNoChanges, "Plan no changes")
		st.Plan.Pending, st.Plan.IsDestroyPlan = "", destroy
		st.LastPlannedRevision, st.LastPlanAt = rev, &at
		st.ReconciliationFailures = 0
		reason, msg = outputsReady(tf, out, v1alpha2.ReasonPlannedNoChanges, "Plan no changes: "+rev, rev)
		setReady(tf, true, reason, msg, rev)
		return "Normal", reason, msg
	case history.ResultUnchanged:
		st.ReconciliationFailures = 0
		if st.LastAppliedRevision == "" && rev != "" {
			// Up to date means its last good apply ran on these very
			// inputs, this revision among them; a status without it lost
			// that apply's write (its leader stopped after reading the
			// runner Job's outcome and before writing the status), so it is
			// written now from what the history knows.
			setCondition(tf, v1alpha2.ConditionApply, metav1.ConditionTrue, v1alpha2.ReasonApplySucceeded, "Applied successfully")
			st.LastAppliedRevision = rev
		}
		reason, msg = outputsReady(tf, out, v1alpha2.ReasonNoDrift, "No drift: "+rev, rev)
		setReady(tf, true, reason, msg, rev)
		return "Normal", reason, msg
	case history.ResultHeld, history.ResultPlanned:
		setCondition(tf, v1alpha2.ConditionPlan, metav1.ConditionTrue, v1alpha2.ReasonPlannedWithChanges, "Plan generated")
		st.Plan.Pending, st.Plan.IsDestroyPlan = sr.PlanID, destroy
		st.LastPlannedRevision, st.LastPlanAt = rev, &at
		msg = fmt.Sprintf("Plan generated: set approvePlan: %q to approve this plan.", sr.PlanID)
		if sr.Message != "" {
			msg += " " + sr.Message
		}
		setReadyStatus(tf, metav1.ConditionUnknown, v1alpha2.ReasonPlannedWithChanges, msg, rev)
		return "Normal", v1alpha2.ReasonPlannedWithChanges, msg
	case history.ResultWaiting, history.ResultSkipped:
		msg = firstOf(sr.Message, sr.Why, string(sr.Result))
		setReady(tf, false, v1alpha2.ReasonDependencyNotReady, msg, rev)
		return "Normal", v1alpha2.ReasonDependencyNotReady, msg
	}
	// failed or interrupted: which step failed decides the reason.
	st.ReconciliationFailures++
	msg = firstOf(sr.Message, sr.Why, string(sr.Result))
	switch {
	case sr.Run == 0 && sr.Digest == "":
		reason = v1alpha2.ReasonArtifactFailed
	case sr.PlanID != "":
		reason = v1alpha2.ReasonApplyFailed
		setCondition(tf, v1alpha2.ConditionApply, metav1.ConditionFalse, v1alpha2.ReasonAppliedFail, msg)
		st.Plan.Pending = ""
	default:
		reason = v1alpha2.ReasonPlanFailed
		setCondition(tf, v1alpha2.ConditionPlan, metav1.ConditionFalse, v1alpha2.ReasonPlanFailed, msg)
	}
	setReady(tf, false, reason, msg, rev)
	return "Warning", reason, msg
}

// outputsReady sets the Output condition and status.availableOutputs, and
// returns the Ready reason and message: the outputs' when they were
// written to a Secret, as the Tofu Controller's last step says.
func outputsReady(tf *v1alpha2.Terraform, out outputs, reason, msg, rev string) (string, string) {
	if len(out.names) == 0 && !out.written {
		return reason, msg
	}
	tf.Status.AvailableOutputs = out.names
	if !out.written {
		setCondition(tf, v1alpha2.ConditionOutput, metav1.ConditionTrue, v1alpha2.ReasonOutputsAvailable, "Outputs available")
		return reason, msg
	}
	setCondition(tf, v1alpha2.ConditionOutput, metav1.ConditionTrue, v1alpha2.ReasonOutputsWritten, "Outputs written")
	return v1alpha2.ReasonOutputsWritten, "Outputs written: " + rev
}

func setCondition(tf *v1alpha2.Terraform, typ string, status metav1.ConditionStatus, reason, msg string) {
	apimeta.SetStatusCondition(&tf.Status.Conditions, metav1.Condition{
		Type: typ, Status: status, Reason: reason, Message: trim(msg), ObservedGeneration: tf.Generation,
	})
}

// setReady sets the Ready condition, true or false, and the revision
// attempted.
func setReady(tf *v1alpha2.Terraform, ok bool, reason, msg, rev string) {
	status := metav1.ConditionFalse
	if ok {
		status = metav1.ConditionTrue
	}
	setReadyStatus(tf, status, reason, msg, rev)
}

func setReadyStatus(tf *v1alpha2.Terraform, status metav1.ConditionStatus, reason, msg, rev string) {
	setCondition(tf, v1alpha2.ConditionReady, status, reason, msg)
	if rev != "" {
		tf.Status.LastAttemptedRevision = rev
	}
}

// maxMessage bounds a condition's message, as the Tofu Controller does.
const maxMessage = 20000

func trim(msg string) string {
	if r := []rune(msg); len(r) > maxMessage {
		return string(r[:maxMessage]) + "..."
	}
	return msg
}

func firstOf(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
