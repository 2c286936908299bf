//go:build k8s

package controller_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

// TestDeleteWithDestroyJobsInCluster is the issue's test 6 through `strata
// controller --runners jobs`: the destroy of an object deleted with
// destroyResourcesOnDeletion is a runner Job, under the object's service
// account, on the state its applies left in the Tofu Controller's
// kubernetes backend Secret; the default policy holds it, the object is
// kept by its finalizer until approvePlan approves the destroy, which a
// second Job applies: the state Secret is left with no resources and the
// outputs Secret goes with the object. An object deleted without it goes
// at once, its resources and state left as they are, and no Job runs for
// it.
func TestDeleteWithDestroyJobsInCluster(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	w.c.RunnerAccount(t, w.ns, "tf-runner")
	jw := watchJobs(t, w)
	w.push("replaceable", "testdata/replaceable", "1.0.0")
	doomed := disk(t, "doomed", "small", true)
	doomed.Spec.WriteOutputsToSecret = &v1alpha2.WriteOutputsToSecretSpec{Name: "doomed-outputs"}
	w.apply(doomed)
	w.apply(disk(t, "kept", "small", false))
	ctrl := startController(t, w, "--leader-elect-namespace", w.ns, "--leader-elect-name", "strata-destroy")

	waitFor(t, 2*runBudget, "doomed and kept Ready", func() (bool, error) {
		for _, n := range []string{"doomed", "kept"} {
			if tf := w.get(n); tf == nil || !strings.HasPrefix(ready(tf), "True ") {
				return false, nil
			}
		}
		return true, nil
	})
	for _, n := range []string{"doomed", "kept"} {
		if got := w.stateResources("tfstate-default-" + n); got != 1 {
			t.Fatalf("resources in the state Secret of %s after its apply = %d, want 1", n, got)
		}
	}
	if _, err := w.c.Client.CoreV1().Secrets(w.ns).Get(ctx, "doomed-outputs", metav1.GetOptions{}); err != nil {
		t.Fatalf("outputs Secret of doomed: %v", err)
	}
	applies := len(jw.Created())

	w.delete("doomed")
	w.delete("kept")
	waitFor(t, runBudget, "kept gone (no destroyResourcesOnDeletion)", func() (bool, error) { return w.get("kept") == nil, nil })
	var id string
	waitFor(t, 2*runBudget, "doomed's destroy plan pending", func() (bool, error) {
		tf := w.get("doomed")
		if tf == nil {
			t.Fatalf("Terraform doomed is gone before its destroy plan was approved")
		}
		id = tf.Status.Plan.Pending
		return strings.HasPrefix(id, "plan-") && tf.Status.Plan.IsDestroyPlan, nil
	})
	if got := w.stateResources("tfstate-default-doomed"); got != 1 {
		t.Errorf("resources in doomed's state Secret while its destroy is held = %d, want 1", got)
	}
	log := ctrl.out.String()
	for _, want := range []string{
		"[doomed] removing the infrastructure: Terraform/doomed was deleted with spec.destroyResourcesOnDeletion",
		"deny_delete",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("controller log lacks %q (from the runner pod):\n%s", want, log)
		}
	}

	w.edit("doomed", func(s *v1alpha2.TerraformSpec) { s.ApprovePlan = id })
	waitFor(t, 2*runBudget, "doomed gone once its destroy is applied", func() (bool, error) { return w.get("doomed") == nil, nil })
	if got := w.stateResources("tfstate-default-doomed"); got != 0 {
		t.Errorf("resources in doomed's state Secret after its destroy = %d, want 0", got)
	}
	if got := w.stateResources("tfstate-default-kept"); got != 1 {
		t.Errorf("resources in kept's state Secret after its deletion = %d, want 1: its resources are left alone", got)
	}
	waitFor(t, runBudget, "doomed's outputs Secret gone with it", func() (bool, error) {
		_, err := w.c.Client.CoreV1().Secrets(w.ns).Get(ctx, "doomed-outputs", metav1.GetOptions{})
		return apierrors.IsNotFound(err), nil
	})
	if !strings.Contains(ctrl.out.String(), "[doomed] apply complete: 0 added, 0 changed, 1 destroyed") {
		t.Errorf("controller log does not show the destroy applied by the runner pod:\n%s", ctrl.out.String())
	}
	// Every Job after the deletions is doomed's destroy: held (again on
	// every pass until approved, as any held plan), then approved.
	var destroys []string
	for _, j := range jw.Created()[applies:] {
		if !strings.HasPrefix(j, "doomed-tf-runner-") {
			t.Errorf("runner job %s started after the deletions, want only doomed's", j)
		}
		destroys = append(destroys, j)
	}
	if len(destroys) < 2 {
		t.Errorf("runner jobs for the deletions = %v, want doomed's destroy held, then approved: two at least", destroys)
	}
}

// stateResources counts the resources in a state Secret of tofu's
// kubernetes backend.
func (w *world) stateResources(secret string) int {
	w.t.Helper()
	var state struct {
		Resources []json.RawMessage `json:"resources"`
	}
	if err := json.Unmarshal(w.state(secret), &state); err != nil {
		w.t.Fatalf("state Secret %s: %v", secret, err)
	}
	return len(state.Resources)
}

// state is the state a Secret of tofu's kubernetes backend holds: its
// gzipped tfstate key, unpacked.
func (w *world) state(secret string) []byte {
	w.t.Helper()
	s, err := w.c.Client.CoreV1().Secrets(w.ns).Get(context.Background(), secret, metav1.GetOptions{})
	if err != nil {
		w.t.Fatalf("state Secret %s: %v", secret, err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(s.Data["tfstate"]))
	if err != nil {
		w.t.Fatalf("state Secret %s: %v", secret, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		w.t.Fatalf("state Secret %s: %v", secret, err)
	}
	return b
}
