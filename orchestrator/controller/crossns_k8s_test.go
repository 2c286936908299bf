//go:build k8s

package controller_test

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/orchestrator/controller"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

// TestCrossNamespaceSourceInCluster reads a spec.sourceRef into another
// namespace as the Tofu Controller does: refused by default, the object
// not ready (AccessDenied) with the Tofu Controller's message, a Warning
// Event, and nothing run; applied from that namespace's artifact once the controller allows
// cross-namespace references (--allow-cross-namespace-refs).
func TestCrossNamespaceSourceInCluster(t *testing.T) {
	w := newWorld(t)
	other := w.c.Namespace(t, "strata-src")
	startSourceController(t, w.c, other)
	w.pushIn(other, "shared", "testdata/replaceable", "1.0.0")
	tf := disk(t, "disk", "small", false)
	tf.Spec.SourceRef = v1alpha2.CrossNamespaceSourceReference{Kind: "OCIRepository", Name: "shared", Namespace: other}
	w.apply(tf)

	// The refusal is the object's alone: the pass goes on.
	w.reconcile()
	got := w.get("disk")
	want := "False AccessDenied: cannot access OCIRepository/" + other + "/shared, cross-namespace references have been disabled"
	if r := ready(got); r != want {
		t.Errorf("Terraform disk Ready with cross-namespace references disabled = %q, want %q", r, want)
	}
	if evs := w.events("disk", v1alpha2.ReasonAccessDenied); len(evs) != 1 || evs[0].Type != "Warning" {
		t.Errorf("Terraform disk %s Events = %v, want one Warning", v1alpha2.ReasonAccessDenied, evs)
	}
	if n := w.executed.Load(); n != 0 {
		t.Errorf("runs executed with the reference refused = %d, want 0", n)
	}

	w.cfg.CrossNamespaceRefs = true
	w.ctrl = controller.New(w.cfg)
	w.reconcile()
	got = w.get("disk")
	if r := ready(got); !strings.HasPrefix(r, "True TerraformAppliedSucceed: Applied successfully: 1.0.0@sha256:") {
		t.Errorf("Terraform disk Ready with cross-namespace references allowed = %q, want True TerraformAppliedSucceed from %s's artifact", r, other)
	}
	if c := condition(got, v1alpha2.ConditionApply); c.Status != metav1.ConditionTrue {
		t.Errorf("Terraform disk Apply condition = %s %s, want True", c.Status, c.Reason)
	}
}
