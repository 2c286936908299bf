//go:build k8s

package controller_test

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

// TestIsolationInCluster: a problem of one Terraform object is that
// object's alone, as in the Tofu Controller. In a namespace with three good
// objects, one whose source does not exist, one whose varsFrom Secret does
// not exist and one that depends on the first, the three good ones apply;
// the others are Ready False with the Tofu Controller's reasons
// (ArtifactFailed, VarsGenerationFailed, DependencyNotReady), each saying
// why. Once the Secret exists, the next pass applies its object, and the
// others are left as they were.
func TestIsolationInCluster(t *testing.T) {
	w := newWorld(t)
	w.push("stack", "../jobs/testdata/stack", "0.1.0")
	good := func(name string) *v1alpha2.Terraform {
		return &v1alpha2.Terraform{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec: v1alpha2.TerraformSpec{
				ApprovePlan: "auto", Path: "./",
				SourceRef: v1alpha2.CrossNamespaceSourceReference{Kind: "OCIRepository", Name: "stack"},
				Vars:      []v1alpha2.Variable{{Name: "name", Value: jsonValue(t, `"`+name+`"`)}},
			},
		}
	}
	for _, n := range []string{"alpha", "bravo", "charlie"} {
		w.apply(good(n))
	}
	nosource := good("nosource")
	nosource.Spec.SourceRef.Name = "missing"
	w.apply(nosource)
	novars := good("novars")
	novars.Spec.Vars = nil
	novars.Spec.VarsFrom = []v1alpha2.VarsReference{{Kind: "Secret", Name: "novars-vars"}}
	w.apply(novars)
	dependent := good("dependent")
	dependent.Spec.DependsOn = []v1alpha2.NamespacedObjectReference{{Name: "nosource"}}
	w.apply(dependent)

	w.reconcile()
	for _, n := range []string{"alpha", "bravo", "charlie"} {
		got := w.get(n)
		if c := condition(got, v1alpha2.ConditionReady); c.Status != metav1.ConditionTrue || c.Reason != v1alpha2.ReasonApplySucceeded {
			t.Errorf("%s Ready = %s, want True %s: another object's problem is not its own", n, ready(got), v1alpha2.ReasonApplySucceeded)
		}
	}
	tests := []struct {
		name, reason, eventType string
		msg                     []string
	}{
		{"nosource", v1alpha2.ReasonArtifactFailed, "Warning", []string{"OCIRepository/missing"}},
		{"novars", v1alpha2.ReasonVarsGenerationFailed, "Warning", []string{"novars-vars"}},
		{"dependent", v1alpha2.ReasonDependencyNotReady, "Normal", []string{"nosource"}},
	}
	for _, tt := range tests {
		got := w.get(tt.name)
		c := condition(got, v1alpha2.ConditionReady)
		if c.Status != metav1.ConditionFalse || c.Reason != tt.reason {
			t.Errorf("%s Ready = %s, want False %s", tt.name, ready(got), tt.reason)
			continue
		}
		for _, want := range tt.msg {
			if !strings.Contains(c.Message, want) {
				t.Errorf("%s Ready message = %q, want it to name %s", tt.name, c.Message, want)
			}
		}
		if evs := w.events(tt.name, tt.reason); len(evs) != 1 || evs[0].Type != tt.eventType {
			t.Errorf("%s's %s Events = %v, want one of type %s", tt.name, tt.reason, evs, tt.eventType)
		}
		if _, err := w.c.Client.CoreV1().Secrets(w.ns).Get(context.Background(), "tfstate-default-"+tt.name, metav1.GetOptions{}); err == nil {
			t.Errorf("state Secret of %s exists, want none: it never ran", tt.name)
		}
	}

	// The Secret given, novars runs; nosource and its dependent stay.
	if _, err := w.c.Client.CoreV1().Secrets(w.ns).Create(context.Background(), &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "novars-vars"},
		StringData: map[string]string{"name": "from-secret"},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	w.reconcile()
	if got := w.get("novars"); condition(got, v1alpha2.ConditionReady).Reason != v1alpha2.ReasonApplySucceeded {
		t.Errorf("novars Ready once its Secret exists = %s, want True %s", ready(got), v1alpha2.ReasonApplySucceeded)
	}
	for _, tt := range tests[:1] {
		if got := w.get(tt.name); condition(got, v1alpha2.ConditionReady).Reason != tt.reason {
			t.Errorf("%s Ready on the next pass = %s, want False %s", tt.name, ready(got), tt.reason)
		}
	}
}
