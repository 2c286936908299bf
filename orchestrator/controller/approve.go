package controller

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/fluxevents"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

// approve records, for every object whose spec.approvePlan names the plan
// its status says is pending (its id, or a prefix of it: approval.Names),
// the approval of that held plan: through
// the pipeline (reconcile.ApproveEnvironment), with the same hold and plan-id checks
// as strata approve. The run that follows applies the saved plan when a
// fresh plan still has its id. An object being deleted approves its
// destroy plan the same way. An approvePlan that names another plan (the
// Tofu Controller's id of a plan pending at the take-over, a plan since
// replaced) approves nothing, and a Warning Event says so with the id to
// use (unapproved); a replan- request needs nothing, as a held plan is
// planned again on every pass.
func (c *Controller) approve(ctx context.Context, p *pass) error {
	for _, tf := range sortedObjects(p.tfs) {
		id := tf.Status.Plan.Pending
		if msg := unapproved(tf); msg != "" {
			c.event(ctx, tf, "Warning", ReasonApprovalFailed, msg)
			continue
		}
		if a := tf.Spec.ApprovePlan; a == "" || a == v1alpha2.ApprovePlanAuto || !approval.Names(a, id) {
			continue
		}
		by := fmt.Sprintf("Terraform/%s/%s", tf.Namespace, tf.Name)
		_, err := c.cfg.Pipeline.ApproveEnvironment(ctx, p.env, "namespace "+p.ns, approval.Request{
			Stack: tf.Name, PlanID: id, By: by, Reason: "spec.approvePlan of " + by,
		})
		if err != nil {
			c.event(ctx, tf, "Warning", ReasonApprovalFailed, fmt.Sprintf("spec.approvePlan %q: %v", tf.Spec.ApprovePlan, err))
			continue
		}
		c.event(ctx, tf, "Normal", ReasonApproved, fmt.Sprintf("plan %s approved by spec.approvePlan", id))
	}
	return nil
}

// unapproved says why an object's spec.approvePlan approves nothing,
// when a plan is pending that it does not name (approvesOther): the id
// to use. "" otherwise.
func unapproved(tf *v1alpha2.Terraform) string {
	a, id := tf.Spec.ApprovePlan, tf.Status.Plan.Pending
	if !approvesOther(tf, id) {
		return ""
	}
	return fmt.Sprintf("spec.approvePlan %q names no pending plan (a plan id of the Tofu Controller's, or of a plan since replaced): nothing is applied; set approvePlan: %q to approve the pending plan", a, id)
}

// approvesOther reports whether the object's spec.approvePlan names a
// plan, and not the plan id: not auto, disable or empty, nor the plan
// last applied (left in the spec after its approval), nor a replan-
// request (the Tofu Controller's "plan again", which a held plan gets on
// every pass). false when id is "" (nothing pending).
func approvesOther(tf *v1alpha2.Terraform, id string) bool {
	a := tf.Spec.ApprovePlan
	return id != "" && a != "" && a != v1alpha2.ApprovePlanAuto && a != v1alpha2.ApprovePlanDisable &&
		!strings.HasPrefix(a, "replan-") && a != tf.Status.Plan.LastApplied && !approval.Names(a, id)
}

// event records an Event, and posts it to Flux's notification-controller
// when Config.Events is set, logging a failure to: an Event is not worth
// a failed reconcile. The post goes on beside the reconcile, as Flux's
// controllers post theirs, with the object's last revision as metadata.
func (c *Controller) event(ctx context.Context, tf *v1alpha2.Terraform, typ, reason, msg string) {
	if err := c.cfg.Cluster.Event(ctx, tf, typ, reason, msg); err != nil {
		c.log.Warn(err.Error(), "namespace", tf.Namespace)
	}
	if c.cfg.Events == nil {
		return
	}
	obj := fluxevents.Object{APIVersion: v1alpha2.GroupVersion.String(), Kind: v1alpha2.Kind, Namespace: tf.Namespace, Name: tf.Name, UID: string(tf.UID)}
	var meta map[string]string
	if rev := tf.Status.LastAttemptedRevision; rev != "" {
		meta = map[string]string{"revision": rev}
	}
	c.posts.Add(1)
	go func() {
		defer c.posts.Done()
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		if err := c.cfg.Events.Post(ctx, obj, typ, reason, msg, meta); err != nil {
			c.log.Warn(err.Error(), "namespace", tf.Namespace)
		}
	}()
}
