package controller

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// strata's own reasons, where the Tofu Controller has none.
const (
	// ReasonValidationFailed: the object has a problem that strata
	// validate would report and the Tofu Controller has no reason for (a
	// field strata refuses); or the namespace has one, and nothing runs.
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
	held := map[string]environment.Blocked{}
	for _, b := range p.env.Blocked {
		if b.Stack != "" {
			held[b.Stack] = b
		}
	}
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
		if changedSince(tf, rev) {
			tf.Status.ReconciliationFailures = 0
		}
		if p.wasExhausted(tf.Name) {
			// Not run: its retries are used up; what it said stays.
			markStalled(tf)
			var reason, msg string
			if prev != nil {
				reason, msg = prev.Reason, prev.Message
			}
			if c.writeObjectStatus(ctx, tf, prev, "Warning", reason, msg) == nil {
				p.written[tf.Name] = true
			}
			continue
		}
		failures := tf.Status.ReconciliationFailures
		typ, reason, msg := applyReport(tf, sr, rev, p.outputs[tf.Name], time.Now())
		if r, m := lockStatus(tf, sr); r != "" {
			typ, reason, msg = "Warning", r, m
			setReady(tf, false, reason, msg, rev)
		}
		if h := healthCheck(tf, sr); h != nil && !h.Passed() {
			c.event(ctx, tf, "Warning", v1alpha2.ReasonHealthChecksFailed, h.Event)
		}
		if p.didWaitToRetry(tf.Name) {
			// It ran nothing: no failure to count.
			tf.Status.ReconciliationFailures = failures
		}
		markStalled(tf)
		if b, ok := held[tf.Name]; ok {
			typ, reason, msg = heldStatus(tf, b, held)
			setReady(tf, false, reason, msg, rev)
		} else if d := notReadyDependency(tf, p.stacks); d != "" && reason == v1alpha2.ReasonDependencyNotReady {
			msg = fmt.Sprintf("dependency '%s/%s' is not ready", tf.Namespace, d)
			setReady(tf, false, reason, msg, rev)
		}
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

// notReadyDependency is the first of the object's spec.dependsOn whose
// stack is not ready after this pass (not applied nor up to date), as the
// Tofu Controller names the dependency it waits for; "" when each is
// ready, or is another namespace's.
func notReadyDependency(tf *v1alpha2.Terraform, stacks map[string]*report.StackReport) string {
	for _, d := range tf.Spec.DependsOn {
		if d.Namespace != "" && d.Namespace != tf.Namespace {
			continue
		}
		sr := stacks[d.Name]
		if sr == nil {
			return d.Name
		}
		switch sr.Result {
		case history.ResultApplied, history.ResultNoChanges, history.ResultUnchanged:
		default:
			return d.Name
		}
	}
	return ""
}

// heldStatus is the Event type, Ready reason and message of an object
// that its problems, or those of an object it depends on, held back (b;
// held are all such objects, by name). The reason is the Tofu
// Controller's for the first of its checks that fails (the source, then
// the dependencies, then the variables), or strata's own
// ValidationFailed for a problem the Tofu Controller has no check for.
// The message is the problem and its fix (AccessDenied's, the Tofu
// Controller's words alone); for a dependency, the Tofu Controller's
// words, then why that one is held.
func heldStatus(tf *v1alpha2.Terraform, b environment.Blocked, held map[string]environment.Blocked) (typ, reason, msg string) {
	var own diag.Problems
	for _, pr := range b.Problems {
		if pr.Stack == b.Stack {
			own = append(own, pr)
		}
	}
	if len(own) == 0 {
		msg = b.Reason
		for _, d := range tf.Spec.DependsOn {
			if up, ok := held[d.Name]; ok && (d.Namespace == "" || d.Namespace == tf.Namespace) {
				_, _, why := heldStatus(&v1alpha2.Terraform{}, up, nil)
				msg = fmt.Sprintf("dependency '%s/%s' is not ready: %s", tf.Namespace, d.Name, why)
				break
			}
		}
		return "Normal", v1alpha2.ReasonDependencyNotReady, msg
	}
	first := func(code string) (diag.Problem, bool) {
		i := slices.IndexFunc(own, func(pr diag.Problem) bool { return pr.Code == code })
		if i < 0 {
			return diag.Problem{}, false
		}
		return own[i], true
	}
	reason, pr := ReasonValidationFailed, own[0]
	if p, ok := first(diag.CodeAccessDenied); ok {
		reason, pr = v1alpha2.ReasonAccessDenied, p
	} else if p, ok := first(diag.CodeSourceNotFound); ok {
		reason, pr = v1alpha2.ReasonArtifactFailed, p
	} else if b.Waiting {
		// Every problem is a ConfigMap or Secret its variables read that
		// the namespace does not hold.
		reason = v1alpha2.ReasonVarsGenerationFailed
	}
	msg = pr.Message
	if pr.Fix != "" && reason != v1alpha2.ReasonAccessDenied {
		// AccessDenied's message is the Tofu Controller's words alone,
		// which users match on.
		msg += " (fix: " + pr.Fix + ")"
	}
	if len(own) > 1 && reason != v1alpha2.ReasonAccessDenied {
		msg = fmt.Sprintf("%s (and %d more problems)", msg, len(own)-1)
	}
	return "Warning", reason, msg
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
	if at, ok := tf.Annotations[v1alpha2.ReconcileRequestAnnotation]; ok {
		// The request that flux reconcile (or a person) made is handled:
		// what waits for it, waits for this.
		tf.Status.LastHandledReconcileAt = at
	}
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
	// A destroy: of an object deleted with destroyResourcesOnDeletion, or
	// of one whose spec.destroy is true.
	destroy := sr.Cause == runner.CauseRemoved || sr.Cause == runner.CauseDestroy
	switch sr.Result {
	case history.ResultApplied:
		setCondition(tf, v1alpha2.ConditionPlan, metav1.ConditionTrue, v1alpha2.ReasonPlannedWithChanges, "Plan generated")
		applied := "Applied successfully"
		if destroy {
			applied = "Destroy applied successfully"
		}
		setCondition(tf, v1alpha2.ConditionApply, metav1.ConditionTrue, v1alpha2.ReasonApplySucceeded, applied)
		st.Plan = v1alpha2.PlanStatus{LastApplied: sr.PlanID, IsDestroyPlan: destroy}
		st.LastAppliedRevision, st.LastPlannedRevision, st.LastPlanAt, st.LastPlannedGeneration = rev, rev, &at, tf.Generation
		st.ReconciliationFailures = 0
		reason, msg = v1alpha2.ReasonApplySucceeded, "Applied successfully: "+rev
		if destroy {
			msg = "Destroyed successfully: " + rev
		}
		st.Inventory = inventory(tf, sr, destroy)
		if sr.Cause == runner.CauseDrift {
			// Drift found and applied away (approvePlan: auto).
			st.LastDriftDetectedAt, st.LastAppliedByDriftDetectionAt = &at, &at
		}
		reason, msg = outputsReady(tf, out, reason, msg, rev)
		setReady(tf, true, reason, msg, rev)
		return "Normal", reason, msg
	case history.ResultNoChanges:
		if tf.Spec.ApprovePlan == v1alpha2.ApprovePlanDisable || sr.Cause == runner.CauseDrift {
			// A drift check that found none, as the Tofu Controller's
			// drift detection says it.
			st.Plan.Pending = ""
			st.ReconciliationFailures = 0
			reason, msg = outputsReady(tf, out, v1alpha2.ReasonNoDrift, "No drift: "+rev, rev)
			setReady(tf, true, reason, msg, rev)
			return "Normal", reason, msg
		}
		setCondition(tf, v1alpha2.ConditionPlan, metav1.ConditionFalse, v1alpha2.ReasonPlannedNoChanges, "Plan no changes")
		st.Plan.Pending, st.Plan.IsDestroyPlan = "", destroy
		st.LastPlannedRevision, st.LastPlanAt, st.LastPlannedGeneration = rev, &at, tf.Generation
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
		reason, msg = v1alpha2.ReasonNoDrift, "No drift: "+rev
		if tf.Spec.DisableDriftDetection {
			// No drift is looked for: Ready keeps what the last apply
			// said, as under the Tofu Controller.
			reason, msg = v1alpha2.ReasonApplySucceeded, "Applied successfully: "+rev
		}
		reason, msg = outputsReady(tf, out, reason, msg, rev)
		setReady(tf, true, reason, msg, rev)
		return "Normal", reason, msg
	case history.ResultHeld, history.ResultPlanned:
		if drifted(tf, sr) {
			return driftDetected(tf, sr, rev, at)
		}
		setCondition(tf, v1alpha2.ConditionPlan, metav1.ConditionTrue, v1alpha2.ReasonPlannedWithChanges, "Plan generated")
		st.Plan.Pending, st.Plan.IsDestroyPlan = sr.PlanID, destroy
		st.LastPlannedRevision, st.LastPlanAt, st.LastPlannedGeneration = rev, &at, tf.Generation
		msg = fmt.Sprintf("Plan generated: set approvePlan: %q to approve this plan.", sr.PlanID)
		if why := policyHold(tf, sr); why != "" {
			msg += " " + why
		}
		if approvesOther(tf, sr.PlanID) {
			msg += fmt.Sprintf(" spec.approvePlan %q does not name it, and approves nothing.", tf.Spec.ApprovePlan)
		}
		if tf.Spec.PlanOnly {
			// Nothing will apply it: the Tofu Controller says so instead.
			msg = "Plan generated: This object is in the plan only mode."
		}
		setReadyStatus(tf, metav1.ConditionUnknown, v1alpha2.ReasonPlannedWithChanges, msg, rev)
		return "Normal", v1alpha2.ReasonPlannedWithChanges, msg
	case history.ResultBlocked:
		// Its load held it back (heldReason refines the reason): nothing
		// ran, so no failure is counted.
		msg = firstOf(sr.Message, sr.Why, string(sr.Result))
		setReady(tf, false, ReasonValidationFailed, msg, rev)
		return "Warning", ReasonValidationFailed, msg
	case history.ResultWaiting, history.ResultSkipped:
		msg = firstOf(sr.Message, sr.Why, string(sr.Result))
		setReady(tf, false, v1alpha2.ReasonDependencyNotReady, msg, rev)
		return "Normal", v1alpha2.ReasonDependencyNotReady, msg
	}
	// failed or interrupted: which step failed decides the reason.
	st.ReconciliationFailures++
	msg = firstOf(sr.Message, sr.Why, string(sr.Result))
	switch {
	case sr.Run == 0 && (sr.Digest == "" || sr.FetchFailed):
		// Its code could not be resolved or fetched: nothing ran.
		reason = v1alpha2.ReasonArtifactFailed
	case sr.Webhook != "":
		// A post-planning webhook refused the plan: nothing is pending.
		reason = v1alpha2.ReasonPostPlanningWebhookFailed
		setCondition(tf, v1alpha2.ConditionPlan, metav1.ConditionFalse, reason, msg)
		st.Plan.Pending = ""
		st.LastPlannedRevision = rev
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

// lockStatus sets the StateLocked condition and status.lock from what the
// stack's run met of its state's lock, as the Tofu Controller does: a lock
// another holds that the run failed on is StateLocked True LockHeld, its
// ID status.lock.pending (and the Ready reason and message returned); a
// lock the run released (spec.tfstate.forceUnlock) is StateLocked False
// ForceUnlock, its ID status.lock.lastApplied; a later run that meets no
// lock clears both, as the Tofu Controller's next plan does.
func lockStatus(tf *v1alpha2.Terraform, sr *report.StackReport) (reason, msg string) {
	st := &tf.Status.Lock
	switch l := sr.Lock; {
	case l != nil && l.Held != "":
		msg = "Terraform Locked with Lock Identifier: " + l.Held
		setCondition(tf, v1alpha2.ConditionStateLocked, metav1.ConditionTrue, v1alpha2.ReasonLockHeld, msg)
		if st.Pending != "" && st.Pending != l.Held {
			st.LastApplied = st.Pending
		}
		st.Pending = l.Held
		return v1alpha2.ReasonLockHeld, msg + fmt.Sprintf("; if its holder is gone, set spec.tfstate.forceUnlock: yes with lockIdentifier: %s, or forceUnlock: auto", l.Held)
	case l != nil && l.Released != "":
		setCondition(tf, v1alpha2.ConditionStateLocked, metav1.ConditionFalse, v1alpha2.ReasonForceUnlock, "Terraform Force Unlock with Lock Identifier: "+l.Released)
		st.LastApplied, st.Pending = l.Released, ""
	case sr.Run != 0 && sr.Result != history.ResultFailed && sr.Result != history.ResultInterrupted:
		apimeta.RemoveStatusCondition(&tf.Status.Conditions, v1alpha2.ConditionStateLocked)
		*st = v1alpha2.LockStatus{}
	}
	return "", ""
}

// inventory is status.inventory after an apply, as the Tofu Controller
// writes it: with spec.enableInventory, the resources the apply left
// (name, type, and the id as identifier); none after a destroy; nil
// without it.
func inventory(tf *v1alpha2.Terraform, sr *report.StackReport, destroy bool) *v1alpha2.ResourceInventory {
	if !tf.Spec.EnableInventory {
		return nil
	}
	inv := &v1alpha2.ResourceInventory{}
	if destroy {
		return inv
	}
	for _, r := range sr.Inventory {
		inv.Entries = append(inv.Entries, v1alpha2.ResourceRef{Name: r.Name, Type: r.Type, Identifier: r.ID})
	}
	return inv
}

// drifted reports whether a plan with changes that is not applied is
// drift, as the Tofu Controller reports it: any plan of an object in drift
// detection only mode (approvePlan: disable), or a plan caused by drift
// alone (nothing of the object's changed) that waits for a person.
func drifted(tf *v1alpha2.Terraform, sr *report.StackReport) bool {
	switch {
	case tf.Spec.PlanOnly:
		return false
	case tf.Spec.ApprovePlan == v1alpha2.ApprovePlanDisable:
		return true
	}
	return sr.Cause == runner.CauseDrift && tf.Spec.ApprovePlan != v1alpha2.ApprovePlanAuto
}

// driftDetected sets the status of drift found and not applied: Ready
// False DriftDetected, saying what differs, status.lastDriftDetectedAt;
// with the plan that would undo it pending, when it has an id.
func driftDetected(tf *v1alpha2.Terraform, sr *report.StackReport, rev string, at metav1.Time) (typ, reason, msg string) {
	st := &tf.Status
	st.LastDriftDetectedAt = &at
	st.LastPlannedRevision, st.LastPlanAt, st.LastPlannedGeneration = rev, &at, tf.Generation
	// The plan as tofu prints it, as the Tofu Controller says drift; or,
	// when it could not be rendered, what it changes.
	msg, sep := strings.TrimRight(sr.DriftText, "\n"), "\n\n"
	if msg == "" {
		msg, sep = fmt.Sprintf("Drift detected: %d to add, %d to change, %d to destroy", sr.Summary.Add, sr.Summary.Change, sr.Summary.Destroy), ". "
		if len(sr.Changes) > 0 {
			msg += ": " + strings.Join(sr.Changes, ", ")
		}
	}
	if sr.PlanID != "" && tf.Spec.ApprovePlan != v1alpha2.ApprovePlanDisable {
		st.Plan.Pending, st.Plan.IsDestroyPlan = sr.PlanID, false
		setCondition(tf, v1alpha2.ConditionPlan, metav1.ConditionTrue, v1alpha2.ReasonPlannedWithChanges, "Plan generated")
		msg += sep + fmt.Sprintf("Set approvePlan: %q to undo it.", sr.PlanID)
	}
	setReady(tf, false, v1alpha2.ReasonDriftDetected, msg, rev)
	return "Warning", v1alpha2.ReasonDriftDetected, msg
}

// policyHold says why strata's policy held a plan that the Tofu
// Controller would have applied (approvePlan: auto): its denials. A plan
// held because approvePlan is not auto needs no more words than the Tofu
// Controller's.
func policyHold(tf *v1alpha2.Terraform, sr *report.StackReport) string {
	if tf.Spec.ApprovePlan != v1alpha2.ApprovePlanAuto || sr.Policy == nil || len(sr.Policy.Denies) == 0 {
		return ""
	}
	var denies []string
	for _, d := range sr.Policy.Denies {
		what := d.Rule
		if d.Message != "" {
			what += ": " + d.Message
		}
		denies = append(denies, what)
	}
	return "Held by strata's policy (" + strings.Join(denies, "; ") + "); start strata controller with --no-default-policy to apply as the Tofu Controller does."
}

// healthCheck sets the HealthCheck condition from the health checks the
// stack's run made (spec.healthChecks), with the Tofu Controller's
// reasons, and returns what they found; nil when none ran, which leaves
// the condition as it was.
func healthCheck(tf *v1alpha2.Terraform, sr *report.StackReport) *history.HealthCheck {
	h := sr.HealthCheck
	switch {
	case h == nil:
	case h.Passed():
		setCondition(tf, v1alpha2.ConditionHealthCheck, metav1.ConditionTrue, v1alpha2.ReasonHealthChecksSucceeded, "Health checks succeeded")
	default:
		setCondition(tf, v1alpha2.ConditionHealthCheck, metav1.ConditionFalse, v1alpha2.ReasonHealthChecksFailed, h.Message)
	}
	return h
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

// setCondition sets one condition, and keeps the conditions in the order
// Flux's controllers, the Tofu Controller among them, keep them (what
// kubectl shows first): Stalled, Reconciling, Ready, then the others by
// type.
func setCondition(tf *v1alpha2.Terraform, typ string, status metav1.ConditionStatus, reason, msg string) {
	apimeta.SetStatusCondition(&tf.Status.Conditions, metav1.Condition{
		Type: typ, Status: status, Reason: reason, Message: trim(msg), ObservedGeneration: tf.Generation,
	})
	slices.SortStableFunc(tf.Status.Conditions, func(a, b metav1.Condition) int {
		if c := cmp.Compare(conditionWeight(a.Type), conditionWeight(b.Type)); c != 0 {
			return c
		}
		return cmp.Compare(a.Type, b.Type)
	})
}

// conditionWeight is where a condition of the type goes: the summary
// conditions first, in Flux's order.
func conditionWeight(typ string) int {
	switch typ {
	case conditionStalled:
		return 0
	case conditionReconciling:
		return 1
	case v1alpha2.ConditionReady:
		return 2
	}
	return 3
}

// Flux's summary conditions, besides Ready.
const (
	conditionStalled     = "Stalled"
	conditionReconciling = "Reconciling"
)

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
