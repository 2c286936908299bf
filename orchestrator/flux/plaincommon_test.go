package flux

import (
	"fmt"
	"testing"

	"sigs.k8s.io/kustomize/api/builtins"
	kustypes "sigs.k8s.io/kustomize/api/types"
)

// commonAnnotatedBoth sets the annotations a on the objects of doc both
// ways: with commonAnnotations (through l, whose answers it keeps), and
// with kustomize's AnnotationsTransformerPlugin. It returns "" when they
// leave the same trees and errors, and how they differ otherwise.
func commonAnnotatedBoth(t *testing.T, l *loader, doc string, a map[string]string) string {
	t.Helper()
	got, want := resMapOf(t, doc), resMapOf(t, doc)
	gotErr := commonAnnotations{annotations: a, nonString: l.nonString}.Transform(got)
	wantErr := (&builtins.AnnotationsTransformerPlugin{Annotations: a, FieldSpecs: []kustypes.FieldSpec{annotationsField}}).Transform(want)
	if (gotErr != nil) != (wantErr != nil) {
		return fmt.Sprintf("error %v, kustomize's %v", gotErr, wantErr)
	}
	return sameTrees(got.Resources(), want.Resources())
}

// TestCommonAnnotations: commonAnnotations leaves the trees kustomize's
// commonAnnotations transformer leaves, for the objects it annotates and
// for those it leaves to kustomize's filter.
func TestCommonAnnotations(t *testing.T) {
	objects := []struct {
		name string
		doc  string
	}{
		{"annotations in the middle", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    team: x # old\n    a: \"yes\"\n  labels:\n    l: v\ndata:\n  k: v\n"},
		{"annotations quoted", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    team: 'x'\n    owner: \"y\"\n"},
		{"no annotations", "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata:\n  name: a\n  namespace: flux-system\nspec:\n  interval: 1h\n"},
		{"empty annotations", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations: {}\n"},
		{"flow annotations", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, annotations: {x: y}}\n"},
		{"null annotations", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations: null\n  namespace: n\n"},
		{"annotations twice", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    a: b\n  annotations:\n    c: d\n"},
		{"a key twice", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    team: b\n    team: c\n"},
		{"annotations a list", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations: [a]\n"},
		{"an alias", "apiVersion: v1\nkind: ConfigMap\nx: &a {team: b}\nmetadata:\n  name: a\n  annotations: *a\n"},
		{"two objects", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: b\n  annotations:\n    s: t\n"},
	}
	maps := []struct {
		name string
		a    map[string]string
	}{
		{"one", map[string]string{"team": "platform"}},
		{"several", map[string]string{"team": "platform", "strata.dev/layer": "services", "a": "z"}},
		{"YAML 1.1 words", map[string]string{"a": "yes", "b": "on", "c": "1", "d": "1e3", "e": "0x1f", "f": "~", "g": "null", "team": "y"}},
		{"empty value", map[string]string{"a": ""}},
		{"lines", map[string]string{"a": "one\ntwo", "b": "one\n"}},
		{"quoted", map[string]string{"a": "'x'", "b": "\"y\"", "c": "- z", "d": "a: b", "e": "[1]"}},
		{"an empty key", map[string]string{"": "x", "team": "y"}},
	}
	l := &loader{}
	for _, o := range objects {
		for _, m := range maps {
			t.Run(o.name+"/"+m.name, func(t *testing.T) {
				if d := commonAnnotatedBoth(t, l, o.doc, m.a); d != "" {
					t.Errorf("commonAnnotations(%v).Transform(%q): %s", m.a, o.doc, d)
				}
			})
		}
	}
}

func FuzzCommonAnnotations(f *testing.F) {
	f.Add("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    b: x\n", "team", "yes")
	f.Add("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n", "a", "1.5")
	f.Add("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, annotations: {a: 'b'}}\n", "a", "x\ny")
	f.Fuzz(func(t *testing.T, doc, k, v string) {
		l := &loader{}
		for _, a := range []map[string]string{{k: v}, {k: v, "z" + k: v + "1"}} {
			if d := commonAnnotatedBoth(t, l, doc, a); d != "" {
				t.Errorf("commonAnnotations(%v).Transform(%q): %s", a, doc, d)
			}
		}
	})
}
