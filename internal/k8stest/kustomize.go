package k8stest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// Kustomize builds a Kustomize directory with krusty, as
// kustomize-controller does, and returns its objects.
func Kustomize(t testing.TB, dir string) []*unstructured.Unstructured {
	t.Helper()
	k := krusty.MakeKustomizer(&krusty.Options{LoadRestrictions: types.LoadRestrictionsNone, PluginConfig: types.DisabledPluginConfig()})
	rm, err := k.Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		t.Fatalf("kustomize build %s: %v", dir, err)
	}
	var objs []*unstructured.Unstructured
	for _, r := range rm.Resources() {
		m, err := r.Map()
		if err != nil {
			t.Fatalf("kustomize build %s: %s: %v", dir, r.CurId(), err)
		}
		objs = append(objs, &unstructured.Unstructured{Object: m})
	}
	return objs
}

// Overlay writes, in a temporary directory, a kustomization whose
// resources are the directory base and whose other fields are the YAML
// extra (namespace:, patches:, …), and returns that directory.
func Overlay(t testing.TB, base, extra string) string {
	t.Helper()
	abs, err := filepath.Abs(base)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// kustomize takes no absolute path to a base.
	rel, err := filepath.Rel(dir, abs)
	if err != nil {
		t.Fatal(err)
	}
	k := "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - " + rel + "\n" + extra
	if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(k), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Applier applies objects of any kind the cluster serves, server-side.
type Applier struct {
	dyn    dynamic.Interface
	mapper *restmapper.DeferredDiscoveryRESTMapper
	// Manager is the field manager of the applies.
	Manager string
}

// Applier returns an Applier for the cluster, as field manager manager.
func (c *Cluster) Applier(t testing.TB, manager string) *Applier {
	t.Helper()
	dyn, err := dynamic.NewForConfig(c.Config)
	if err != nil {
		t.Fatal(err)
	}
	dc, err := discovery.NewDiscoveryClientForConfig(c.Config)
	if err != nil {
		t.Fatal(err)
	}
	return &Applier{dyn: dyn, mapper: restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc)), Manager: manager}
}

// Resource is the client of obj's kind, in its namespace when it has one.
func (a *Applier) Resource(obj *unstructured.Unstructured) (dynamic.ResourceInterface, error) {
	gvk := obj.GroupVersionKind()
	m, err := a.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		// A kind served since the mapper's last discovery (a new CRD).
		a.mapper.Reset()
		if m, err = a.mapper.RESTMapping(gvk.GroupKind(), gvk.Version); err != nil {
			return nil, fmt.Errorf("%s %s: %w", gvk, obj.GetName(), err)
		}
	}
	if obj.GetNamespace() != "" {
		return a.dyn.Resource(m.Resource).Namespace(obj.GetNamespace()), nil
	}
	return a.dyn.Resource(m.Resource), nil
}

// Apply applies obj server-side (forcing conflicts, as Flux does); with
// dryRun the API server validates it without keeping it.
func (a *Applier) Apply(ctx context.Context, obj *unstructured.Unstructured, dryRun bool) error {
	ri, err := a.Resource(obj)
	if err != nil {
		return err
	}
	opts := metav1.ApplyOptions{FieldManager: a.Manager, Force: true}
	if dryRun {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	if _, err := ri.Apply(ctx, obj.GetName(), obj, opts); err != nil {
		return fmt.Errorf("apply %s %s: %w", obj.GetKind(), obj.GetName(), err)
	}
	return nil
}
