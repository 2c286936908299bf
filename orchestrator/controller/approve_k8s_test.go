//go:build k8s

package controller_test

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

// disk is a Terraform object of the replaceable stack: a change of size
// replaces its resource, which the default policy holds.
func disk(t *testing.T, name, size string, destroyOnDeletion bool) *v1alpha2.Terraform {
	return &v1alpha2.Terraform{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1alpha2.TerraformSpec{
			ApprovePlan: "auto", Path: "./",
			SourceRef:                  v1alpha2.CrossNamespaceSourceReference{Kind: "OCIRepository", Name: "replaceable"},
			Vars:                       []v1alpha2.Variable{{Name: "size", Value: jsonValue(t, `"`+size+`"`)}},
			DestroyResourcesOnDeletion: destroyOnDeletion,
		},
	}
}

// Test 3 of issue 14: a plan that destroys (a replace) is held by the
// default policy, its id in status.plan.pending; approvePlan set to that
// id applies it.
func TestApprovePlanInCluster(t *testing.T) {
	w := newWorld(t)
	w.push("replaceable", "testdata/replaceable", "1.0.0")
	w.apply(disk(t, "disk", "small", false))
	w.reconcile()
	if got := ready(w.get("disk")); !strings.HasPrefix(got, "True ") {
		t.Fatalf("Terraform disk Ready after the first apply = %q, want True", got)
	}

	w.edit("disk", func(s *v1alpha2.TerraformSpec) { s.Vars[0].Value = jsonValue(t, `"large"`) })
	w.reconcile()
	tf := w.get("disk")
	id := tf.Status.Plan.Pending
	if !strings.HasPrefix(id, "plan-") {
		t.Fatalf("Terraform disk status.plan.pending = %q, want the held plan's id (Ready: %s)", id, ready(tf))
	}
	if got, want := ready(tf), `Unknown TerraformPlannedWithChanges: Plan generated: set approvePlan: "`+id+`" to approve this plan.`; !strings.HasPrefix(got, want) {
		t.Errorf("Terraform disk Ready while held = %q, want it to start %q", got, want)
	}
	if c := condition(tf, v1alpha2.ConditionPlan); c.Status != metav1.ConditionTrue || c.Reason != v1alpha2.ReasonPlannedWithChanges {
		t.Errorf("Terraform disk Plan condition = %s %s, want True %s", c.Status, c.Reason, v1alpha2.ReasonPlannedWithChanges)
	}
	applied := tf.Status.Plan.LastApplied

	// Another pass changes nothing: the plan stays held.
	w.reconcile()
	if got := w.get("disk").Status.Plan.Pending; got != id {
		t.Errorf("Terraform disk status.plan.pending after another pass = %q, want %q still held", got, id)
	}

	w.edit("disk", func(s *v1alpha2.TerraformSpec) { s.ApprovePlan = id })
	w.reconcile()
	tf = w.get("disk")
	if tf.Status.Plan.Pending != "" || tf.Status.Plan.LastApplied != id || applied == id {
		t.Errorf("Terraform disk status.plan after approvePlan %s = %+v, want lastApplied %s and nothing pending", id, tf.Status.Plan, id)
	}
	if got := ready(tf); !strings.HasPrefix(got, "True TerraformAppliedSucceed: Applied successfully: 1.0.0@sha256:") {
		t.Errorf("Terraform disk Ready after approvePlan = %q, want True TerraformAppliedSucceed", got)
	}
	if !strings.Contains(w.logs.String(), "plan "+id+" was approved by Terraform/"+w.ns+"/disk") {
		t.Errorf("run log does not say who approved plan %s:\n%s", id, w.logs.String())
	}
}

// Test 6 of issue 14: deleting a Terraform object with
// destroyResourcesOnDeletion plans a destroy, which goes through policy:
// held by default, the object kept by its finalizer until approvePlan
// approves the destroy; an object without it goes at once, its
// resources left as they are. Each one's writeOutputsToSecret Secret is
// deleted when its finalizer goes, as the Tofu Controller deletes it, even
// one without an owner reference (as one written before strata may be),
// which no garbage collection would remove.
func TestDeleteWithDestroyInCluster(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	w.push("replaceable", "testdata/replaceable", "1.0.0")
	for _, tf := range []*v1alpha2.Terraform{disk(t, "doomed", "small", true), disk(t, "kept", "small", false)} {
		tf.Spec.WriteOutputsToSecret = &v1alpha2.WriteOutputsToSecretSpec{Name: tf.Name + "-outputs"}
		w.apply(tf)
	}
	w.reconcile()
	secrets := w.c.Client.CoreV1().Secrets(w.ns)
	for _, n := range []string{"doomed", "kept"} {
		if got := ready(w.get(n)); !strings.HasPrefix(got, "True ") {
			t.Fatalf("Terraform %s Ready after the first apply = %q, want True", n, got)
		}
		// An outputs Secret its object does not own.
		if _, err := secrets.Patch(ctx, n+"-outputs", types.MergePatchType, []byte(`{"metadata":{"ownerReferences":null}}`), metav1.PatchOptions{}); err != nil {
			t.Fatalf("outputs Secret of %s: %v", n, err)
		}
	}
	outputsGone := func(n string) bool {
		t.Helper()
		_, err := secrets.Get(ctx, n+"-outputs", metav1.GetOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Fatal(err)
		}
		return apierrors.IsNotFound(err)
	}
	runs := w.executed.Load()

	for _, n := range []string{"doomed", "kept"} {
		w.delete(n)
	}
	w.reconcile()
	if tf := w.get("kept"); tf != nil {
		t.Errorf("Terraform kept (no destroyResourcesOnDeletion) still exists after a pass: finalizers %v", tf.Finalizers)
	}
	if strings.Contains(w.logs.String(), "[kept] run #2") {
		t.Errorf("Terraform kept was run again after its deletion; its resources must be left alone:\n%s", w.logs.String())
	}
	if !outputsGone("kept") {
		t.Errorf("outputs Secret of kept still there once kept is gone, want it deleted with it")
	}
	tf := w.get("doomed")
	if tf == nil {
		t.Fatalf("Terraform doomed is gone before its destroy plan was approved")
	}
	if outputsGone("doomed") {
		t.Errorf("outputs Secret of doomed gone while its destroy is held, want it kept until the object goes")
	}
	id := tf.Status.Plan.Pending
	if !strings.HasPrefix(id, "plan-") || !tf.Status.Plan.IsDestroyPlan {
		t.Fatalf("Terraform doomed status.plan = %+v, want a pending destroy plan (Ready: %s)", tf.Status.Plan, ready(tf))
	}
	if !strings.Contains(w.logs.String(), "[doomed] removing the infrastructure: Terraform/doomed was deleted with spec.destroyResourcesOnDeletion") {
		t.Errorf("run log does not say why doomed is destroyed:\n%s", w.logs.String())
	}
	if !strings.Contains(w.logs.String(), "deny_delete") {
		t.Errorf("run log does not name the policy rule that held the destroy:\n%s", w.logs.String())
	}

	w.edit("doomed", func(s *v1alpha2.TerraformSpec) { s.ApprovePlan = id })
	w.reconcile()
	if tf := w.get("doomed"); tf != nil {
		t.Errorf("Terraform doomed still exists after its destroy plan was approved: status %+v, Ready %s", tf.Status.Plan, ready(tf))
	}
	if !strings.Contains(w.logs.String(), "[doomed] apply complete: 0 added, 0 changed, 1 destroyed") {
		t.Errorf("run log does not show the destroy applied:\n%s", w.logs.String())
	}
	if !outputsGone("doomed") {
		t.Errorf("outputs Secret of doomed still there once its destroy is applied and doomed is gone, want it deleted")
	}
	// The destroy, held then approved, is two runs of doomed's code handed
	// to the executor (a runner Job with --runners jobs); kept's deletion
	// runs nothing.
	if got := w.executed.Load() - runs; got != 2 {
		t.Errorf("runs the executor was handed for the deletions = %d, want 2 (doomed's destroy, held then approved)", got)
	}
}
