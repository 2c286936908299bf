//go:build k8s

package controller_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensions "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha1"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

// TestV1alpha1InCluster: a Terraform object written at v1alpha1, as older
// manifests are, applies (with the deprecation warning) and is
// reconciled as any v1alpha2 object; it reads back at both versions.
func TestV1alpha1InCluster(t *testing.T) {
	w := newWorld(t)
	tf := w.module("helloworld-v1alpha1", "hello-world", "0.1.0")
	tf.APIVersion, tf.Kind, tf.Namespace = v1alpha1.GroupVersionResource.GroupVersion().String(), v1alpha2.Kind, w.ns
	tf.Spec.Interval = metav1.Duration{Duration: 5 * time.Minute}
	u := toUnstructured(t, tf)
	if _, err := w.dyn.Resource(v1alpha1.GroupVersionResource).Namespace(w.ns).Create(context.Background(), u, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create a v1alpha1 Terraform: %v", err)
	}
	w.reconcile()
	got := w.get(tf.Name)
	wantCondition(t, got, v1alpha2.ConditionApply, v1alpha2.ReasonApplySucceeded, "Applied successfully")
	old, err := w.dyn.Resource(v1alpha1.GroupVersionResource).Namespace(w.ns).Get(context.Background(), tf.Name, metav1.GetOptions{})
	if err != nil || old.GetAPIVersion() != "infra.contrib.fluxcd.io/v1alpha1" {
		t.Fatalf("read at v1alpha1: %v, %v", old, err)
	}
	if r, _, _ := unstructured.NestedString(old.Object, "status", "lastAppliedRevision"); r != got.Status.LastAppliedRevision {
		t.Errorf("status.lastAppliedRevision at v1alpha1 = %q, want v1alpha2's %q", r, got.Status.LastAppliedRevision)
	}
}

// TestCRDTakesOverStoredV1alpha1InCluster: a cluster whose CRD stored objects at
// v1alpha1 (status.storedVersions lists it, as the Tofu Controller's
// older releases leave it) takes strata's CRD in its place: the update is
// accepted, and the objects read at v1alpha2. The CRD is renamed to a
// group of the test's own, so that the cluster's real one is untouched.
func TestCRDTakesOverStoredV1alpha1InCluster(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	cs, err := apiextensions.NewForConfig(w.c.Config)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("../../flux-apps/strata/crd/infra.contrib.fluxcd.io_terraforms.yaml")
	if err != nil {
		t.Fatal(err)
	}
	group := "takeover-" + strings.TrimPrefix(w.ns, "strata-ctrl-") + ".strata.test"
	var strata apiextensionsv1.CustomResourceDefinition
	if err := yaml.Unmarshal(b, &strata); err != nil {
		t.Fatal(err)
	}
	strata.Name, strata.Spec.Group = "terraforms."+group, group
	// The older CRD: v1alpha1 alone, stored.
	older := strata.DeepCopy()
	older.Spec.Versions = nil
	for _, v := range strata.Spec.Versions {
		if v.Name == v1alpha1.Version {
			v.Storage, v.Deprecated, v.DeprecationWarning = true, false, nil
			older.Spec.Versions = append(older.Spec.Versions, v)
		}
	}
	if _, err := cs.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, older, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.ApiextensionsV1().CustomResourceDefinitions().Delete(context.Background(), strata.Name, metav1.DeleteOptions{})
	})
	v1 := schema.GroupVersionResource{Group: group, Version: "v1alpha1", Resource: "terraforms"}
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": group + "/v1alpha1", "kind": "Terraform",
		"metadata": map[string]any{"name": "stored-at-v1alpha1", "namespace": w.ns},
		"spec":     map[string]any{"path": "./", "approvePlan": "auto", "interval": "10m", "sourceRef": map[string]any{"kind": "GitRepository", "name": "flux-system"}},
	}}
	waitFor(t, time.Minute, "the older CRD established", func() (bool, error) {
		_, err := w.dyn.Resource(v1).Namespace(w.ns).Create(ctx, obj, metav1.CreateOptions{})
		return err == nil, nil
	})
	have, err := cs.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, strata.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	strata.ResourceVersion = have.ResourceVersion
	if _, err := cs.ApiextensionsV1().CustomResourceDefinitions().Update(ctx, &strata, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("replace a CRD that stored v1alpha1 with strata's: %v", err)
	}
	v2 := schema.GroupVersionResource{Group: group, Version: "v1alpha2", Resource: "terraforms"}
	waitFor(t, time.Minute, "the object read at v1alpha2", func() (bool, error) {
		got, err := w.dyn.Resource(v2).Namespace(w.ns).Get(ctx, "stored-at-v1alpha1", metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		path, _, _ := unstructured.NestedString(got.Object, "spec", "path")
		return got.GetAPIVersion() == group+"/v1alpha2" && path == "./", nil
	})
}
