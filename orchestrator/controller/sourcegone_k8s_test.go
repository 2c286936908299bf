//go:build k8s

package controller_test

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

// TestDestroySourceGoneInCluster: the code an object's apply ran is kept
// in the namespace's records, so that deleting its OCIRepository and then
// the object (destroyResourcesOnDeletion) still destroys its resources:
// the destroy plan is a runner Job that reads that code from the records,
// held by the default policy until approvePlan approves it, then applied
// by a second Job; the state is left with no resources, and the kept code
// goes with the object's finalizer.
func TestDestroySourceGoneInCluster(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	w.c.RunnerAccount(t, w.ns, "tf-runner")
	jw := watchJobs(t, w)
	w.push("replaceable", "testdata/replaceable", "1.0.0")
	w.apply(disk(t, "doomed", "small", true))
	var log testkit.Buffer
	ctrl := w.jobsController(t, "leader", w.cfg.Cluster, &log)
	reconcile := func() {
		t.Helper()
		if err := ctrl.Reconcile(ctx, w.ns); err != nil {
			t.Fatalf("Reconcile(%s) = %v\n%s", w.ns, err, log.String())
		}
	}
	reconcile()
	if got := ready(w.get("doomed")); !strings.HasPrefix(got, "True ") {
		t.Fatalf("doomed Ready after its apply = %q, want True:\n%s", got, log.String())
	}
	if got := w.stateResources("tfstate-default-doomed"); got != 1 {
		t.Fatalf("resources in doomed's state after its apply = %d, want 1", got)
	}
	if kept := w.keptArtifacts(); len(kept) != 2 {
		t.Fatalf("kept artifact Secrets after doomed's apply = %v, want two: its record and its one part", kept)
	}

	// The source goes first (source-controller deletes its artifact), then
	// the object.
	if err := w.dyn.Resource(ociRepositories).Namespace(w.ns).Delete(ctx, "replaceable", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, time.Minute, "OCIRepository replaceable gone", func() (bool, error) {
		_, err := w.dyn.Resource(ociRepositories).Namespace(w.ns).Get(ctx, "replaceable", metav1.GetOptions{})
		return err != nil, nil
	})
	applies := len(jw.Created())
	w.delete("doomed")
	reconcile()
	tf := w.get("doomed")
	if tf == nil {
		t.Fatalf("Terraform doomed gone before its destroy was approved:\n%s", log.String())
	}
	id := tf.Status.Plan.Pending
	if !strings.HasPrefix(id, "plan-") || !tf.Status.Plan.IsDestroyPlan {
		t.Fatalf("doomed status.plan after its deletion = %+v, want its destroy plan held (Ready: %s):\n%s", tf.Status.Plan, ready(tf), log.String())
	}
	for _, want := range []string{
		"OCIRepository replaceable has no artifact: destroying with the code of run #1",
		"[doomed] removing the infrastructure: Terraform/doomed was deleted with spec.destroyResourcesOnDeletion",
	} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("controller log lacks %q:\n%s", want, log.String())
		}
	}

	w.edit("doomed", func(s *v1alpha2.TerraformSpec) { s.ApprovePlan = id })
	reconcile()
	if tf := w.get("doomed"); tf != nil {
		t.Fatalf("Terraform doomed still there once its destroy was approved (Ready: %s):\n%s", ready(tf), log.String())
	}
	if got := w.stateResources("tfstate-default-doomed"); got != 0 {
		t.Errorf("resources in doomed's state after its destroy = %d, want 0", got)
	}
	if !strings.Contains(log.String(), "[doomed] apply complete: 0 added, 0 changed, 1 destroyed") {
		t.Errorf("controller log does not show the destroy applied by the runner pod:\n%s", log.String())
	}
	waitFor(t, 30*time.Second, "the destroy's two runner jobs seen", func() (bool, error) { return len(jw.Created()) >= applies+2, nil })
	for _, j := range jw.Created()[applies:] {
		if !strings.HasPrefix(j, "doomed-tf-runner-") {
			t.Errorf("runner job %s started after doomed's deletion, want only its destroy's", j)
		}
	}
	if kept := w.keptArtifacts(); len(kept) != 0 {
		t.Errorf("kept artifact Secrets once doomed is gone = %v, want none", kept)
	}
}

// keptArtifacts are the names of the namespace's kept artifact Secrets.
func (w *world) keptArtifacts() []string {
	w.t.Helper()
	list, err := w.c.Client.CoreV1().Secrets(w.ns).List(context.Background(), metav1.ListOptions{LabelSelector: "strata.dev/record=kept-artifact"})
	if err != nil {
		w.t.Fatal(err)
	}
	var names []string
	for _, s := range list.Items {
		names = append(names, s.Name)
	}
	return names
}
