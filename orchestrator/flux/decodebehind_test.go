package flux

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/orchestrator/diag"
)

// behindView is what a test compares of a decoded object.
type behindView struct {
	Kind, Name string
	Labels     map[string]string
	Problem    *diag.Problem
	Skipped    string
}

func viewOf(d decoded, p *diag.Problem) behindView {
	v := behindView{Problem: p, Skipped: d.Skipped}
	if o := d.object(); o != nil {
		v.Kind, v.Name, v.Labels = o.Kind, o.Name(), o.Metadata.Labels
	}
	return v
}

// TestDecodeBehind: objects decoded behind come out as decodeObject
// decodes them, in the order handed over, sharing equal labels once
// waited for; the map of a kind strata does not read is kept.
func TestDecodeBehind(t *testing.T) {
	docs := []string{
		"apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: a, labels: {tier: x}}\nspec: {path: ./a, targetNamespace: t}\n",
		"apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata: {name: b, labels: {tier: x}}\nspec: {path: ./b}\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v}\n",
		"apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nspec: {}\n",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n",
	}
	objs := make([]map[string]any, len(docs))
	for i, doc := range docs {
		if err := yaml.Unmarshal([]byte(doc), &objs[i]); err != nil {
			t.Fatal(err)
		}
	}
	b := newDecodeBehind()
	defer b.stop()
	var pds []*predecoded
	for _, obj := range objs {
		pds = append(pds, b.add("f.yaml", obj))
	}
	var shared stringMaps
	b.wait(&shared)
	for i, obj := range objs {
		want := viewOf(decodeObject("f.yaml", obj, nil))
		if diff := cmp.Diff(want, viewOf(pds[i].d, pds[i].p)); diff != "" {
			t.Errorf("decodeBehind of %q (-decodeObject +behind):\n%s", docs[i], diff)
		}
	}
	a, tf := pds[0].d.Kustomization, pds[1].d.Terraform
	if reflect.ValueOf(a.Metadata.Labels).UnsafePointer() != reflect.ValueOf(tf.Metadata.Labels).UnsafePointer() {
		t.Errorf("decodeBehind: equal labels of a Kustomization and a Terraform are two maps, want one, shared by wait")
	}
	if got := pds[4].obj; got == nil {
		t.Errorf("decodeBehind of a Deployment kept no map, want it for registerApp")
	}
	if got := pds[1].obj; got != nil {
		t.Errorf("decodeBehind of a Terraform kept its map, want it let go of")
	}
	if len(b.added) != 0 {
		t.Errorf("decodeBehind after wait holds %d objects, want none", len(b.added))
	}
}

// panicking is a value whose JSON encoding panics.
type panicking struct{}

func (panicking) MarshalJSON() ([]byte, error) { panic("panicking") }

// TestDecodeBehindPanic: a panic while decoding behind is the load's:
// wait decodes the object again on its own goroutine, which panics there,
// and stop still ends the goroutine.
func TestDecodeBehindPanic(t *testing.T) {
	b := newDecodeBehind()
	ok := b.add("f.yaml", map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"}})
	b.add("g.yaml", map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "x": panicking{}})
	panicked := func() (p any) {
		defer func() { p = recover() }()
		b.wait(nil)
		return nil
	}()
	if panicked == nil {
		t.Errorf("wait() after a panic behind returned, want it to panic on the load's goroutine")
	}
	if ok.d.ConfigMap == nil || ok.d.ConfigMap.Name() != "c" {
		t.Errorf("decodeBehind of the object before the panic = %+v, want ConfigMap c", ok.d)
	}
	b.stop()
}
