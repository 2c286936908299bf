//go:build k8s

package main

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"

	"github.com/strata-iac/strata/internal/k8stest"
)

// TestManifestsApplyInCluster renders flux-apps/strata and its runner
// base, as a Flux Kustomization would, into a fresh namespace, and applies
// every object to the real cluster with a server-side dry run: the API
// server validates each (the CRD, RBAC, the PriorityClass, the quota, the
// Deployment) without keeping any.
func TestManifestsApplyInCluster(t *testing.T) {
	c := k8stest.Get(t)
	ns := c.Namespace(t, "strata-manifests")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dyn, err := dynamic.NewForConfig(c.Config)
	if err != nil {
		t.Fatal(err)
	}
	dc, err := discovery.NewDiscoveryClientForConfig(c.Config)
	if err != nil {
		t.Fatal(err)
	}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc))
	for _, dir := range []string{overlay(t, manifests, ns, ""), overlay(t, manifests+"/runner", ns, "")} {
		objs, _ := render(t, dir)
		for _, obj := range objs {
			u := &unstructured.Unstructured{Object: obj}
			gvk := u.GroupVersionKind()
			m, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
			if err != nil {
				t.Errorf("%s %s: %v", gvk, u.GetName(), err)
				continue
			}
			var ri dynamic.ResourceInterface = dyn.Resource(m.Resource)
			if u.GetNamespace() != "" {
				ri = dyn.Resource(m.Resource).Namespace(u.GetNamespace())
			}
			if _, err := ri.Apply(ctx, u.GetName(), u, metav1.ApplyOptions{FieldManager: "strata-manifests-test", Force: true, DryRun: []string{metav1.DryRunAll}}); err != nil {
				t.Errorf("server-side dry-run apply of %s %s: %v", gvk.Kind, u.GetName(), err)
			}
		}
	}
}
