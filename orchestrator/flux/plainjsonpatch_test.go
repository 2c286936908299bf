package flux

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/kustomize/api/builtins"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	kustypes "sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/resid"
	"sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/internal/recovered"
)

// patchedBoth patches the objects of doc with patch both ways: with
// jsonPatchTransformer, and with kustomize's PatchTransformer plugin. It
// returns each one's objects, or its error; direct says the patch's
// operations were applied to the YAML tree.
func patchedBoth(t *testing.T, doc, patch string) (got, want []map[string]any, gotErr, wantErr error, direct bool) {
	t.Helper()
	target := &kustypes.Selector{}
	build := func() resmap.ResMap { return resMapOf(t, doc) }
	maps := func(m resmap.ResMap) []map[string]any {
		var out []map[string]any
		for _, r := range m.Resources() {
			r.RemoveBuildAnnotations()
			o, err := objectMap(r)
			if err != nil {
				t.Fatalf("objectMap: %v", err)
			}
			out = append(out, o)
		}
		return out
	}
	jp, ok := readJSONPatch(patch)
	if !ok {
		t.Skipf("readJSONPatch(%q) is no JSON6902 patch", patch)
	}
	m := build()
	for _, r := range m.Resources() {
		direct = direct || (jp.ops != nil && roundTrips(r.YNode()))
	}
	l := &loader{}
	compiled, err := l.target(*target)
	if err != nil {
		t.Fatalf("target(%v): %v", target, err)
	}
	if gotErr = caught(func() error {
		return (jsonPatchTransformer{patch: jp, target: compiled, setAnnotations: l.setAnnotations}).Transform(m)
	}); gotErr == nil {
		got = maps(m)
	}
	c, err := yaml.Marshal(kustypes.Patch{Patch: patch, Target: target})
	if err != nil {
		t.Fatal(err)
	}
	p := builtins.NewPatchTransformerPlugin()
	if wantErr = p.Config(resmap.NewPluginHelpers(nil, nil, resmapFactory, nil), c); wantErr == nil {
		m = build()
		if wantErr = caught(func() error { return p.Transform(m) }); wantErr == nil {
			want = maps(m)
		}
	}
	return got, want, gotErr, wantErr, direct
}

// caught runs f, and returns its panic as an error, as a build
// recovers from a kustomize transformer's (transformPlain, runKrusty).
func caught(f func() error) (err error) {
	defer recovered.Catch(&err, "")
	return f()
}

// TestJSONPatchAsKustomize checks that a JSON6902 patch applied to the
// YAML tree gives the objects kustomize's PatchTransformer gives, and
// fails where it fails.
func TestJSONPatchAsKustomize(t *testing.T) {
	const tf = "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata:\n  name: app # a comment\n  labels: {a: b}\nspec:\n  interval: 10m\n  approvePlan: auto\n  retries: 3\n  suspend: false\n  destroy: ~\n  vars:\n  - name: x\n    value: \"1\"\n  - name: y\n    value: [1, 2]\n"
	tests := []struct {
		name, doc, patch string
		// direct says the operations go to the YAML tree.
		direct bool
		// fails says kustomize refuses the patch.
		fails bool
	}{
		{name: "replace and add", doc: tf, patch: "- op: replace\n  path: /spec/interval\n  value: 1h\n- op: add\n  path: /metadata/labels\n  value: {tier: bench}\n", direct: true},
		{name: "add a key to a mapping", doc: tf, patch: "- op: add\n  path: /metadata/labels/c\n  value: d\n", direct: true},
		{name: "replace a missing key adds it, as v4 does", doc: tf, patch: "- op: replace\n  path: /spec/workspace\n  value: w\n", direct: true},
		{name: "remove a key", doc: tf, patch: "- op: remove\n  path: /spec/suspend\n", direct: true},
		{name: "remove a missing key", doc: tf, patch: "- op: remove\n  path: /spec/nothing\n", direct: true, fails: true},
		{name: "append to a list", doc: tf, patch: "- op: add\n  path: /spec/vars/-\n  value: {name: z, value: true}\n", direct: true},
		{name: "insert into a list", doc: tf, patch: "- op: add\n  path: /spec/vars/0\n  value: {name: w, value: 1.5}\n", direct: true},
		{name: "insert past a list's end", doc: tf, patch: "- op: add\n  path: /spec/vars/3\n  value: {name: w}\n", direct: true, fails: true},
		{name: "replace a list item's field", doc: tf, patch: "- op: replace\n  path: /spec/vars/1/value\n  value: {nested: [a, 2, null, 1000000]}\n", direct: true},
		{name: "remove a list item", doc: tf, patch: "- op: remove\n  path: /spec/vars/0\n", direct: true},
		{name: "an index with a leading zero", doc: tf, patch: "- op: remove\n  path: /spec/vars/00\n", direct: true},
		{name: "a negative index", doc: tf, patch: "- op: remove\n  path: /spec/vars/-1\n", direct: true},
		{name: "a path through a missing key", doc: tf, patch: "- op: add\n  path: /spec/nothing/x\n  value: 1\n", direct: true, fails: true},
		{name: "a path through a null", doc: tf, patch: "- op: add\n  path: /spec/destroy/x\n  value: 1\n", direct: true, fails: true},
		{name: "a path through a string", doc: tf, patch: "- op: add\n  path: /spec/interval/x\n  value: 1\n", direct: true, fails: true},
		{name: "escaped tokens", doc: tf, patch: "- op: add\n  path: /metadata/labels/example.com~1team\n  value: a~b\n- op: add\n  path: /metadata/labels/x~0y\n  value: \"2\"\n", direct: true},
		{name: "a JSON list", doc: tf, patch: `[{"op": "add", "path": "/spec/approvePlan", "value": ""}]`, direct: true},
		{name: "a value that is a number of a million", doc: tf, patch: "- op: add\n  path: /spec/big\n  value: 1000000\n", direct: true},
		{name: "replacing the whole document with nothing, which panics in kustomize's filter", doc: tf, patch: "- op: replace\n  path: \"\"\n", fails: true},
		{name: "test goes through kustomize's filter", doc: tf, patch: "- op: test\n  path: /spec/retries\n  value: 3\n"},
		{name: "move goes through kustomize's filter", doc: tf, patch: "- op: move\n  from: /spec/retries\n  path: /spec/tries\n"},
		{name: "a float goes through kustomize's filter", doc: tf + "  ratio: 0.5\n", patch: "- op: add\n  path: /spec/x\n  value: 1\n"},
		{name: "a number of a million goes through kustomize's filter", doc: tf + "  big: 1000000\n", patch: "- op: add\n  path: /spec/x\n  value: 1\n"},
		{name: "a timestamp goes through kustomize's filter", doc: tf + "  when: 2001-12-14\n", patch: "- op: add\n  path: /spec/x\n  value: 1\n"},
		{name: "a $ goes through kustomize's filter", doc: tf + "  ref: ${cluster}\n", patch: "- op: add\n  path: /spec/x\n  value: 1\n"},
		{name: "several objects", doc: tf + "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: v\n", patch: "- op: add\n  path: /metadata/annotations\n  value: {a: \"1\"}\n", direct: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, want, gotErr, wantErr, direct := patchedBoth(t, tt.doc, tt.patch)
			if direct != tt.direct {
				t.Errorf("patch %q applied to the YAML tree = %v, want %v", tt.patch, direct, tt.direct)
			}
			if (wantErr != nil) != tt.fails {
				t.Fatalf("kustomize's patch %q: %v, want failure %v", tt.patch, wantErr, tt.fails)
			}
			if wantErr != nil {
				if gotErr == nil {
					t.Errorf("jsonPatchTransformer(%q) = %v, want an error as kustomize's (%v)", tt.patch, got, wantErr)
				}
				return
			}
			if gotErr != nil {
				if !errors.Is(gotErr, errNotPlain) {
					t.Errorf("jsonPatchTransformer(%q) = %v, want kustomize's %v or errNotPlain", tt.patch, gotErr, want)
				}
				return
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("jsonPatchTransformer(%q) differs from kustomize's (-kustomize +tree):\n%s", tt.patch, diff)
			}
		})
	}
}

// FuzzJSONPatchAsKustomize holds a JSON6902 patch applied to the YAML
// tree to kustomize's PatchTransformer: where the tree's patch succeeds,
// kustomize's does, and gives the same objects.
func FuzzJSONPatchAsKustomize(f *testing.F) {
	f.Add("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n  n: 12\n  l: [1, x, {a: b}]\n", "- op: add\n  path: /data/x\n  value: {a: [1]}\n")
	f.Add("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels: {x: y}\ndata: {}\n", "- op: replace\n  path: /metadata/labels/x\n  value: 2\n- op: remove\n  path: /metadata/labels\n")
	f.Add("apiVersion: v1\nkind: List\nmetadata:\n  name: a\nitems: [[], {}, null, true]\n", "[{\"op\":\"add\",\"path\":\"/items/2\",\"value\":-3}]")
	f.Fuzz(func(t *testing.T, doc, patch string) {
		if len(doc) > 4096 || len(patch) > 1024 {
			return
		}
		got, want, gotErr, wantErr, _ := patchedBoth(t, doc, patch)
		if gotErr != nil {
			return
		}
		if wantErr != nil {
			t.Fatalf("jsonPatchTransformer(%q) over %q = %v, kustomize's fails: %v", patch, doc, got, wantErr)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("jsonPatchTransformer(%q) over %q differs from kustomize's (-kustomize +tree):\n%s", patch, doc, diff)
		}
	})
}

// TestPatchTargetSelects holds a compiled patch target to kustomize's
// Select, over objects of which some were renamed and moved.
func TestPatchTargetSelects(t *testing.T) {
	const doc = `apiVersion: infra.contrib.fluxcd.io/v1alpha2
kind: Terraform
metadata:
  name: network-0001
  namespace: flux-system
  labels:
    tier: bench
  annotations:
    strata.dev/layer: network
---
apiVersion: infra.contrib.fluxcd.io/v1alpha2
kind: Terraform
metadata:
  name: cluster-0001
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: network-0001
  namespace: apps
  labels:
    tier: other
---
apiVersion: v1
kind: Namespace
metadata:
  name: apps
`
	tests := []struct {
		name     string
		selector kustypes.Selector
	}{
		{"everything", kustypes.Selector{}},
		{"kind", kustypes.Selector{ResId: resid.ResId{Gvk: resid.Gvk{Kind: "Terraform"}}}},
		{"group and version", kustypes.Selector{ResId: resid.ResId{Gvk: resid.Gvk{Group: "infra.contrib.fluxcd.io", Version: "v1alpha2"}}}},
		{"core group", kustypes.Selector{ResId: resid.ResId{Gvk: resid.Gvk{Group: "", Version: "v1", Kind: "ConfigMap"}}}},
		{"name pattern", kustypes.Selector{ResId: resid.ResId{Name: "network-.*"}}},
		{"name is anchored", kustypes.Selector{ResId: resid.ResId{Name: "network"}}},
		{"old name", kustypes.Selector{ResId: resid.ResId{Name: "cluster-0001"}}},
		{"new name", kustypes.Selector{ResId: resid.ResId{Name: "p-cluster-0001"}}},
		{"namespace", kustypes.Selector{ResId: resid.ResId{Namespace: "apps"}}},
		{"default namespace", kustypes.Selector{ResId: resid.ResId{Namespace: "default"}}},
		{"moved namespace", kustypes.Selector{ResId: resid.ResId{Namespace: "moved"}}},
		{"label selector", kustypes.Selector{LabelSelector: "tier=bench"}},
		{"label set-based selector", kustypes.Selector{LabelSelector: "tier in (bench, other)"}},
		{"annotation selector", kustypes.Selector{AnnotationSelector: "strata.dev/layer"}},
		{"annotation selector that is wrong", kustypes.Selector{AnnotationSelector: "a b c"}},
		{"label selector that is wrong", kustypes.Selector{LabelSelector: "!!"}},
		{"everything at once", kustypes.Selector{ResId: resid.ResId{Gvk: resid.Gvk{Kind: "Terraform|ConfigMap"}, Name: "network-0001"}, LabelSelector: "tier"}},
	}
	l := &loader{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := resourceFactory.SliceFromBytes([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			m := resmap.New()
			for _, r := range rs {
				if err := m.Append(r); err != nil {
					t.Fatal(err)
				}
			}
			// The second object is renamed and the third moved, as
			// namePrefix and namespace transformers leave them.
			rs[1].StorePreviousId()
			rs[1].SetName("p-cluster-0001")
			rs[2].StorePreviousId()
			if err := rs[2].SetNamespace("moved"); err != nil {
				t.Fatal(err)
			}
			want, wantErr := m.Select(tt.selector)
			target, err := l.target(tt.selector)
			if err != nil {
				t.Fatalf("target(%v): %v", tt.selector, err)
			}
			var got []*resource.Resource
			var gotErr error
			for _, r := range m.Resources() {
				ok, err := target.selects(r)
				if err != nil {
					gotErr = err
					break
				}
				if ok {
					got = append(got, r)
				}
			}
			if (gotErr != nil) != (wantErr != nil) {
				t.Fatalf("selects(%v) error = %v, want %v", tt.selector, gotErr, wantErr)
			}
			if gotErr != nil {
				return
			}
			if diff := cmp.Diff(ids(want), ids(got)); diff != "" {
				t.Errorf("selects(%v) (-kustomize's Select +got):\n%s", tt.selector, diff)
			}
			if tt.name == "everything" && len(got) != 4 {
				t.Errorf("selects(%v) = %d objects, want 4", tt.selector, len(got))
			}
		})
	}
}

// ids are the current ids of rs, as strings.
func ids(rs []*resource.Resource) []string {
	out := make([]string, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.CurId().String())
	}
	return out
}
