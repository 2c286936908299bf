package flux

import (
	"testing"

	"sigs.k8s.io/kustomize/api/resource"
)

// annotatedBoth sets the annotations of the objects of doc to a both
// ways: with setAnnotations (through l, whose answers it keeps), and
// with kustomize's SetAnnotations (see bothWays).
func annotatedBoth(t *testing.T, l *loader, doc string, a map[string]string) string {
	t.Helper()
	return bothWays(t, doc,
		func(r *resource.Resource) error { return l.setAnnotations(r, a) },
		func(r *resource.Resource) error { return r.SetAnnotations(a) })
}

func TestSetAnnotations(t *testing.T) {
	objects := []struct {
		name string
		doc  string
	}{
		{"annotations in the middle", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    b: x\n    a: \"yes\"\n  labels:\n    l: v\ndata:\n  k: v\n"},
		{"annotations last", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    b: x\n"},
		{"no annotations", "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata:\n  name: a\n  namespace: flux-system\nspec:\n  interval: 1h\n"},
		{"empty annotations", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations: {}\n"},
		{"null annotations", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations: null\n  namespace: n\n"},
		{"annotations twice", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    a: b\n  annotations:\n    c: d\n"},
		{"flow metadata", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, annotations: {x: y}}\n"},
		{"two objects", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: b\n  annotations:\n    s: t\n"},
	}
	maps := []struct {
		name string
		a    map[string]string
	}{
		{"none", nil},
		{"empty", map[string]string{}},
		{"strings", map[string]string{"team": "platform", "strata.dev/layer": "services"}},
		{"YAML 1.1 words", map[string]string{"a": "yes", "b": "on", "c": "1", "d": "1e3", "e": "0x1f", "f": "~", "g": "null", "h": "2001-12-14", "i": "y", "j": ".inf", "k": "0b101", "l": "1_000"}},
		{"empty value", map[string]string{"a": ""}},
		{"lines", map[string]string{"a": "one\ntwo", "b": "one\n"}},
		{"not UTF-8", map[string]string{"a": "\xff"}},
		{"quoted", map[string]string{"a": "'x'", "b": "\"y\"", "c": "- z", "d": "a: b", "e": "[1]"}},
		{"an empty key", map[string]string{"": "0"}},
	}
	l := &loader{}
	for _, o := range objects {
		for _, m := range maps {
			t.Run(o.name+"/"+m.name, func(t *testing.T) {
				if d := annotatedBoth(t, l, o.doc, m.a); d != "" {
					t.Errorf("setAnnotations(%q, %v): %s", o.doc, m.a, d)
				}
			})
		}
	}
	// Asked again, from what the load kept, the answers are the same.
	for _, m := range maps {
		if d := annotatedBoth(t, l, objects[0].doc, m.a); d != "" {
			t.Errorf("setAnnotations(%q, %v) again: %s", objects[0].doc, m.a, d)
		}
	}
	if len(l.nonStrings) == 0 {
		t.Errorf("setAnnotations kept no answer of IsValueNonString")
	}
}

func FuzzSetAnnotations(f *testing.F) {
	f.Add("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    b: x\n", "team", "yes")
	f.Add("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n", "a", "1.5")
	f.Add("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, annotations: 1}\n", "a", "x\ny")
	f.Fuzz(func(t *testing.T, doc, k, v string) {
		l := &loader{}
		rs, err := resourceFactory.SliceFromBytes([]byte(doc))
		if err != nil || len(rs) == 0 {
			return
		}
		for _, a := range []map[string]string{{k: v}, {k: v, "z" + k: v + "1"}, {}} {
			if d := annotatedBoth(t, l, doc, a); d != "" {
				t.Errorf("setAnnotations(%q, %v): %s", doc, a, d)
			}
		}
	})
}
