package flux

import (
	"fmt"
	"testing"

	"sigs.k8s.io/kustomize/api/filters/namespace"
	"sigs.k8s.io/kustomize/api/filters/prefix"
	"sigs.k8s.io/kustomize/api/filters/suffix"
	"sigs.k8s.io/kustomize/api/resource"
)

// renamedBoth renames the objects of doc both ways: with rename, and
// with kustomize's prefix and suffix filters (see bothWays).
func renamedBoth(t *testing.T, doc, pre, suf string) string {
	t.Helper()
	return bothWays(t, doc,
		func(r *resource.Resource) error { return rename(r, pre, suf) },
		func(r *resource.Resource) error {
			if pre != "" {
				if err := r.ApplyFilter(prefix.Filter{Prefix: pre, FieldSpec: nameField}); err != nil {
					return err
				}
			}
			if suf != "" {
				return r.ApplyFilter(suffix.Filter{Suffix: suf, FieldSpec: nameField})
			}
			return nil
		})
}

// TestRename: rename leaves the tree kustomize's prefix and suffix
// filters leave, for the names a plain build renames and for those it
// leaves to the filters.
func TestRename(t *testing.T) {
	objects := []struct {
		name string
		doc  string
	}{
		{"plain", "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata:\n  name: net\n  namespace: flux-system\nspec:\n  interval: 1h\n"},
		{"double quoted", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: \"a\"\n"},
		{"single quoted", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: 'yes'\n"},
		{"commented", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  # the name\n  name: a # here\n"},
		{"a number", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: 123\n"},
		{"tagged", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: !!str 1.5\n"},
		{"null", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: null\n"},
		{"empty", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: \"\"\n"},
		{"a mapping", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {a: b}\n"},
		{"a list", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [a]\n"},
		{"an alias", "apiVersion: v1\nkind: ConfigMap\nx: &n a\nmetadata:\n  name: *n\n"},
		{"flow metadata", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: b}\n"},
		{"name twice", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n"},
		{"metadata twice", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nmetadata:\n  name: b\n"},
		{"literal", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: |-\n    a\n"},
		{"two objects", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: b\n"},
	}
	affixes := [][2]string{{"bench-", ""}, {"", "-dev"}, {"p-", "-s"}, {"1", ""}, {"", "\"x"}}
	for _, o := range objects {
		for _, a := range affixes {
			t.Run(fmt.Sprintf("%s/%q%q", o.name, a[0], a[1]), func(t *testing.T) {
				if d := renamedBoth(t, o.doc, a[0], a[1]); d != "" {
					t.Errorf("rename(%q, %q, %q): %s", o.doc, a[0], a[1], d)
				}
			})
		}
	}
}

func FuzzRename(f *testing.F) {
	f.Add("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n", "bench-", "")
	f.Add("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: 'a' # c\n  namespace: n\n", "p-", "-s")
	f.Add("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: 1}\n", "", "x")
	f.Fuzz(func(t *testing.T, doc, pre, suf string) {
		if pre == "" && suf == "" {
			return
		}
		rs, err := resourceFactory.SliceFromBytes([]byte(doc))
		if err != nil || len(rs) == 0 {
			return
		}
		if d := renamedBoth(t, doc, pre, suf); d != "" {
			t.Errorf("rename(%q, %q, %q): %s", doc, pre, suf, d)
		}
	})
}

// namespacedBoth sets the namespace of the objects of doc both ways:
// with setNamespace, and with kustomize's namespace filter as a plain
// build configures it (see bothWays).
func namespacedBoth(t *testing.T, doc, ns string) string {
	t.Helper()
	return bothWays(t, doc,
		func(r *resource.Resource) error { return setNamespace(r, ns) },
		func(r *resource.Resource) error {
			return r.ApplyFilter(namespace.Filter{Namespace: ns, SetRoleBindingSubjects: namespace.DefaultSubjectsOnly})
		})
}

// TestSetNamespace: setNamespace leaves the tree kustomize's namespace
// filter leaves, for the objects a plain build moves and for those it
// leaves to the filter.
func TestSetNamespace(t *testing.T) {
	objects := []struct {
		name string
		doc  string
	}{
		{"plain", "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata:\n  name: net\n  namespace: flux-system\nspec:\n  interval: 1h\n"},
		{"no namespace", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels: {a: b}\n"},
		{"quoted", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: 'x' # c\n"},
		{"a number", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: 1\n"},
		{"null", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: ~\n"},
		{"empty", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: \"\"\n"},
		{"a mapping", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: {a: b}\n"},
		{"flow metadata", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"},
		{"namespace twice", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: b\n  namespace: c\n"},
		{"no metadata", "apiVersion: v1\nkind: ConfigMap\ndata: {a: b}\n"},
		{"cluster-scoped", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n"},
		{"a custom cluster kind", "apiVersion: example.com/v1\nkind: ClusterThing\nmetadata:\n  name: a\n"},
		{"two objects", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: b\n  namespace: n\n"},
	}
	for _, o := range objects {
		for _, ns := range []string{"team", "yes", "1", "a b"} {
			t.Run(fmt.Sprintf("%s/%q", o.name, ns), func(t *testing.T) {
				if d := namespacedBoth(t, o.doc, ns); d != "" {
					t.Errorf("setNamespace(%q, %q): %s", o.doc, ns, d)
				}
			})
		}
	}
}

func FuzzSetNamespace(f *testing.F) {
	f.Add("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n", "team")
	f.Add("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: 'a' # c\n  namespace: n\n", "yes")
	f.Add("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: 1, namespace: ~}\n", "1")
	f.Fuzz(func(t *testing.T, doc, ns string) {
		if ns == "" {
			return
		}
		rs, err := resourceFactory.SliceFromBytes([]byte(doc))
		if err != nil || len(rs) == 0 {
			return
		}
		if d := namespacedBoth(t, doc, ns); d != "" {
			t.Errorf("setNamespace(%q, %q): %s", doc, ns, d)
		}
	})
}
