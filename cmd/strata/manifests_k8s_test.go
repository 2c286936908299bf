//go:build k8s && kube

package main

import (
	"context"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/k8stest"
)

// TestManifestsApplyInCluster renders flux-apps/strata and its runner
// base, as a Flux Kustomization would, into a fresh namespace, and applies
// every object to the real cluster with a server-side dry run (shard1's
// Deployment too): the API
// server validates each (the CRD, RBAC, the PriorityClass, the quota, the
// Deployment) without keeping any.
func TestManifestsApplyInCluster(t *testing.T) {
	c := k8stest.Get(t)
	ns := c.Namespace(t, "strata-manifests")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	a := c.Applier(t, "strata-manifests-test")
	for _, dir := range []string{overlay(t, manifests, ns, ""), overlay(t, manifests+"/runner", ns, ""), overlay(t, manifests+"/shard1", ns, "")} {
		for _, obj := range k8stest.Kustomize(t, dir) {
			if err := a.Apply(ctx, obj, true); err != nil {
				t.Errorf("server-side dry run: %v", err)
			}
		}
	}
}
