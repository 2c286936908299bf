package flux

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	kustypes "sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/resid"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// plainCM is a ConfigMap manifest.
func plainCM(name, extra string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n" + extra + "data:\n  k: v\n"
}

// plainTF is a Terraform object's manifest.
func plainTF(name, extra string) string {
	return "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata:\n  name: " + name + "\n" + extra + "spec:\n  interval: 10m\n  path: ./stacks\n"
}

// plainDeployment is a Deployment's manifest.
const plainDeployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        image: old\n      - name: side\n        image: s\n"

// plainComponent is a Component's kustomization file, as users write
// one: commonAnnotations and a patch of every Terraform object.
const plainComponent = "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\ncommonAnnotations:\n  team: platform\npatches:\n  - target:\n      kind: Terraform\n    patch: |\n      - op: replace\n        path: /spec/interval\n        value: 1h\n"

// kfileOf is a kustomization file listing resources.
func kfileOf(resources ...string) string {
	return "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - " + strings.Join(resources, "\n  - ") + "\n"
}

// builtResult is what one build gave: its objects and its problems.
type builtResult struct {
	Objects  []renderedObject
	Problem  *diag.Problem
	Problems diag.Problems
	// Plain says the build was made without krusty.
	Plain bool
}

// buildWith builds dir (relative to root) as the Flux Kustomization flux
// would, or as an entry directory (flux nil, files its top-level files),
// with plain builds on or off.
func buildWith(t *testing.T, root, dir string, flux map[string]any, files []string, plain bool) builtResult {
	t.Helper()
	plainBuilds = plain
	defer func() { plainBuilds = true }()
	l := newLoader(context.Background(), root, dir)
	l.env = &environment.Environment{Skipped: map[string]int{}}
	l.keepRendered = true
	objs, p := l.build(dir, fluxKustomization(flux), l.rulesForRef(nil, nil), files, "Kustomization/app")
	return builtResult{Objects: dropResources(objs), Problem: p, Problems: l.problems, Plain: l.plainBuilt > 0}
}

// fluxKustomization is the Flux Kustomization whose map is flux, as
// decodeObject would make it for a build; nil for a nil map (the entry
// directory's build).
func fluxKustomization(flux map[string]any) *kustomization {
	if flux == nil {
		return nil
	}
	return &kustomization{rendered: rendered{raw: flux}, gen: generatingOf(flux)}
}

func TestGeneratingOf(t *testing.T) {
	tests := []struct {
		name string
		spec map[string]any
		want *generating
	}{
		{name: "no spec"},
		{name: "none of it", spec: map[string]any{"path": "./x", "prune": true, "postBuild": map[string]any{}, "decryption": map[string]any{}}},
		{name: "targetNamespace", spec: map[string]any{"targetNamespace": "team"}, want: &generating{plain: plainKust{namespace: "team"}, plainOK: true}},
		{name: "no patches", spec: map[string]any{"patches": []any{}}, want: &generating{plain: plainKust{patches: []kustypes.Patch{}}, plainOK: true}},
		{name: "images", spec: map[string]any{"images": []any{}}, want: &generating{}},
		{name: "components", spec: map[string]any{"components": []any{"../c"}}, want: &generating{plain: plainKust{components: []string{"../c"}}, plainOK: true, components: []string{"../c"}}},
		{name: "sops", spec: map[string]any{"decryption": map[string]any{"provider": "sops"}}, want: &generating{plainOK: true, decrypt: true}},
		{name: "origin annotations", spec: map[string]any{"buildMetadata": []any{"originAnnotations"}}, want: &generating{origins: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			flux := map[string]any{"apiVersion": "kustomize.toolkit.fluxcd.io/v1", "kind": "Kustomization"}
			if tt.spec != nil {
				flux["spec"] = tt.spec
			}
			got := generatingOf(flux)
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(generating{}, plainKust{})); diff != "" {
				t.Errorf("generatingOf(%v) = %+v, want %+v; diff (-want +got):\n%s", tt.spec, got, tt.want, diff)
			}
			want := generating{plainOK: true}
			if tt.want != nil {
				want = *tt.want
			}
			k := &kustomization{gen: got}
			if diff := cmp.Diff(want, k.generating(), cmp.AllowUnexported(generating{}, plainKust{})); diff != "" {
				t.Errorf("generating() of %v (-want +got):\n%s", tt.spec, diff)
			}
		})
	}
	if diff := cmp.Diff(generating{plainOK: true}, (*kustomization)(nil).generating(), cmp.AllowUnexported(generating{}, plainKust{})); diff != "" {
		t.Errorf("generating() of the entry directory's build (-want +got):\n%s", diff)
	}
}

// TestBuildPlain checks that a plain build (plainbuild.go) renders what
// krusty renders, object for object, file for file, and that what a
// plain build cannot say is said as krusty says it: each case is built
// both ways and compared.
func TestBuildPlain(t *testing.T) {
	flux := map[string]any{"spec": map[string]any{"path": "./app", "prune": true}}
	tests := []struct {
		name  string
		files map[string]string
		flux  map[string]any
		// entry builds app as the entry directory's top-level files.
		entry []string
		// plain says the build is a plain one; any other is krusty's.
		plain bool
		// problem, when set, is what both builds' problem must say.
		problem string
	}{
		{
			name:  "one file, one object",
			files: map[string]string{"app/kustomization.yaml": kfileOf("cm.yaml"), "app/cm.yaml": plainCM("a", "")},
			plain: true,
		},
		{
			name: "several files, several documents, empty ones, comments and a namespace",
			files: map[string]string{
				"app/kustomization.yaml": kfileOf("./b.yaml", "sub/a.yml"),
				"app/b.yaml":             "# head\n---\n" + plainCM("b1", "  namespace: ns\n") + "---\n---\n# tail\n" + plainCM("b2", "  labels: {x: y}\n"),
				"app/sub/a.yml":          plainCM("a", "  annotations:\n    note: \"${x}\"\n"),
			},
			plain: true,
		},
		{
			name:  "a kustomization file named kustomization.yml, without apiVersion or kind",
			files: map[string]string{"app/kustomization.yml": "resources:\n- cm.yaml\n", "app/cm.yaml": plainCM("a", "")},
			plain: true,
		},
		{
			name:  "no kustomization file: Flux's generator lists every manifest under the directory",
			files: map[string]string{"app/z.yaml": plainCM("z", ""), "app/a/b.yml": plainCM("b", ""), "app/a/c.yaml": "", "app/readme.md": "# not read"},
			plain: true,
		},
		{
			name:  "the entry directory's top-level files",
			files: map[string]string{"app/one.yaml": plainCM("one", ""), "app/two.yaml": plainCM("two", "")},
			entry: []string{"one.yaml", "two.yaml"},
			plain: true,
		},
		{
			name: "anchors, aliases and a merge key go through kustomize's reader",
			files: map[string]string{
				"app/kustomization.yaml": kfileOf("cm.yaml"),
				"app/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels: &l {x: y}\n  annotations:\n    <<: *l\ndata:\n  k: v\n",
			},
			plain: true,
		},
		{
			name:  "a List is inlined",
			files: map[string]string{"app/kustomization.yaml": kfileOf("list.yaml"), "app/list.yaml": "apiVersion: v1\nkind: ConfigMapList\nitems:\n- " + strings.ReplaceAll(plainCM("a", ""), "\n", "\n  ") + "\n"},
			plain: true,
		},
		{
			name:  "Windows line ends",
			files: map[string]string{"app/kustomization.yaml": kfileOf("cm.yaml"), "app/cm.yaml": strings.ReplaceAll(plainCM("a", "")+"  multi: |\n    one\n    two\n", "\n", "\r\n")},
			plain: true,
		},
		{
			name:  "a Flux Kustomization with targetNamespace over a ConfigMap is plain",
			files: map[string]string{"app/kustomization.yaml": kfileOf("cm.yaml"), "app/cm.yaml": plainCM("a", "")},
			flux:  map[string]any{"spec": map[string]any{"path": "./app", "targetNamespace": "other"}},
			plain: true,
		},
		{
			name:  "a kustomization file with a namePrefix over a ConfigMap",
			files: map[string]string{"app/kustomization.yaml": kfileOf("cm.yaml") + "namePrefix: p-\n", "app/cm.yaml": plainCM("a", "")},
			plain: true,
		},
		{
			name:  "a kustomization file with a namePrefix over a Deployment is krusty's",
			files: map[string]string{"app/kustomization.yaml": kfileOf("cm.yaml", "d.yaml") + "namePrefix: p-\n", "app/cm.yaml": plainCM("a", ""), "app/d.yaml": plainDeployment},
		},
		{
			name:  "a base directory is krusty's",
			files: map[string]string{"app/kustomization.yaml": kfileOf("base"), "app/base/kustomization.yaml": kfileOf("cm.yaml"), "app/base/cm.yaml": plainCM("a", "")},
		},
		{
			name:  "a missing file is said as krusty says it",
			files: map[string]string{"app/kustomization.yaml": kfileOf("cm.yaml", "gone.yaml"), "app/cm.yaml": plainCM("a", "")},
		},
		{
			name:  "one id twice is said as krusty says it",
			files: map[string]string{"app/kustomization.yaml": kfileOf("a.yaml", "b.yaml"), "app/a.yaml": plainCM("a", ""), "app/b.yaml": plainCM("a", "")},
		},
		{
			name:  "an object without a name is said as krusty says it",
			files: map[string]string{"app/kustomization.yaml": kfileOf("a.yaml"), "app/a.yaml": "apiVersion: v1\nkind: ConfigMap\ndata: {k: v}\n"},
		},
		{
			name:  "malformed YAML is said as krusty says it",
			files: map[string]string{"app/kustomization.yaml": kfileOf("a.yaml"), "app/a.yaml": "apiVersion: v1\nkind: [\n"},
		},
		{
			name:    "a document that is a list of objects is said as not an object, naming the file and line",
			files:   map[string]string{"app/kustomization.yaml": kfileOf("a.yaml", "list.yaml"), "app/a.yaml": plainCM("a", ""), "app/list.yaml": "- apiVersion: v1\n  kind: ConfigMap\n"},
			problem: "app/list.yaml: Kustomization/app: the document at line 1 is a sequence (a list of items), not an object",
		},
		{
			name:    "a document that is a list, without a kustomization file",
			files:   map[string]string{"app/a.yaml": plainCM("a", ""), "app/list.yaml": plainCM("b", "") + "---\n- apiVersion: v1\n  kind: ConfigMap\n"},
			problem: "app/list.yaml: Kustomization/app: the document at line 8 is a sequence (a list of items), not an object",
		},
		{
			name:    "a document that is a list, of the entry directory",
			files:   map[string]string{"app/a.yaml": plainCM("a", ""), "app/list.yaml": "- a\n- b\n"},
			entry:   []string{"a.yaml", "list.yaml"},
			problem: "app/list.yaml: Kustomization/app: the document at line 1 is a sequence (a list of items), not an object",
		},
		{
			name:    "a document that is a list, in a base",
			files:   map[string]string{"app/kustomization.yaml": kfileOf("base"), "app/base/kustomization.yaml": kfileOf("../base/list.yaml"), "app/base/list.yaml": "- x\n"},
			problem: "app/base/list.yaml: Kustomization/app: the document at line 1 is a sequence",
		},
		{
			name:    "a document that is a scalar",
			files:   map[string]string{"app/kustomization.yaml": kfileOf("a.yaml"), "app/a.yaml": "# a comment\nhello world\n"},
			problem: `app/a.yaml: Kustomization/app: the document at line 2 is a scalar ("hello world"), not an object`,
		},
		{
			name:    "a document that is a tagged scalar",
			files:   map[string]string{"app/a.yaml": "!!str 42\n"},
			problem: `app/a.yaml: Kustomization/app: the document at line 1 is a scalar ("42"), not an object`,
		},
		{
			name:  "null, empty mapping and empty list documents are no objects, as kustomize skips them",
			files: map[string]string{"app/kustomization.yaml": kfileOf("a.yaml", "b.yaml"), "app/a.yaml": "null\n---\n{}\n---\n[]\n---\n~\n", "app/b.yaml": plainCM("b", "")},
			plain: true,
		},
		{
			name:  "a JSON6902 patch file that is a list is no problem",
			files: map[string]string{"app/kustomization.yaml": kfileOf("a.yaml") + "patches:\n- path: p.yaml\n  target: {kind: ConfigMap}\n", "app/a.yaml": plainCM("a", ""), "app/p.yaml": "- op: add\n  path: /data/x\n  value: y\n"},
		},
		{
			name:  "targetNamespace over custom kinds, ConfigMaps and Secrets",
			flux:  map[string]any{"spec": map[string]any{"path": "./app", "targetNamespace": "team"}},
			files: map[string]string{"app/kustomization.yaml": kfileOf("tf.yaml", "cm.yaml", "s.yaml"), "app/tf.yaml": "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata:\n  name: app\n  namespace: flux-system\nspec:\n  path: ./stacks\n", "app/cm.yaml": plainCM("a", "  namespace: other\n"), "app/s.yaml": "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\nstringData:\n  k: v\n"},
			plain: true,
		},
		{
			name:  "targetNamespace without a kustomization file",
			flux:  map[string]any{"spec": map[string]any{"path": "./app", "targetNamespace": "team"}},
			files: map[string]string{"app/tf.yaml": "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata:\n  name: app\n  namespace: flux-system\nspec:\n  path: ./stacks\n", "app/cm.yaml": plainCM("a", "")},
			plain: true,
		},
		{
			name:  "targetNamespace over a kind krusty's name references start from",
			flux:  map[string]any{"spec": map[string]any{"path": "./app", "targetNamespace": "team"}},
			files: map[string]string{"app/kustomization.yaml": kfileOf("cm.yaml", "rb.yaml"), "app/cm.yaml": plainCM("a", ""), "app/rb.yaml": "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: rb\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}\nsubjects:\n- {kind: ServiceAccount, name: default, namespace: x}\n"},
		},
		{
			name:  "targetNamespace that makes two objects one",
			flux:  map[string]any{"spec": map[string]any{"path": "./app", "targetNamespace": "team"}},
			files: map[string]string{"app/kustomization.yaml": kfileOf("a.yaml", "b.yaml"), "app/a.yaml": plainCM("a", "  namespace: x\n"), "app/b.yaml": plainCM("a", "  namespace: y\n")},
		},
		{
			name:  "targetNamespace, namePrefix and nameSuffix over custom kinds and ConfigMaps",
			flux:  map[string]any{"spec": map[string]any{"path": "./app", "targetNamespace": "team", "namePrefix": "p-", "nameSuffix": "-s"}},
			files: map[string]string{"app/kustomization.yaml": kfileOf("tf.yaml", "cm.yaml"), "app/tf.yaml": "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata:\n  name: app\nspec:\n  path: ./stacks\n", "app/cm.yaml": plainCM("a", "")},
			plain: true,
		},
		{
			name:  "namePrefix over a Deployment is krusty's",
			flux:  map[string]any{"spec": map[string]any{"path": "./app", "namePrefix": "p-"}},
			files: map[string]string{"app/kustomization.yaml": kfileOf("cm.yaml", "d.yaml"), "app/cm.yaml": plainCM("a", ""), "app/d.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  template:\n    spec:\n      volumes:\n      - name: v\n        configMap: {name: a}\n"},
		},
		{
			name:  "nameSuffix without a kustomization file",
			flux:  map[string]any{"spec": map[string]any{"path": "./app", "nameSuffix": "-s"}},
			files: map[string]string{"app/cm.yaml": plainCM("a", ""), "app/s.yaml": "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n"},
			plain: true,
		},
		{
			name:  "spec.patches: a JSON6902 patch of the Terraform object",
			flux:  map[string]any{"spec": map[string]any{"path": "./app", "patches": []any{map[string]any{"target": map[string]any{"kind": "Terraform"}, "patch": "- op: replace\n  path: /spec/interval\n  value: 1h\n- op: add\n  path: /metadata/labels\n  value: {tier: bench}\n"}}}},
			files: map[string]string{"app/kustomization.yaml": kfileOf("tf.yaml", "cm.yaml"), "app/tf.yaml": plainTF("app", "  annotations: {note: x}\n"), "app/cm.yaml": plainCM("a", "")},
			plain: true,
		},
		{
			name:  "spec.patches: a strategic merge patch with a target and one without, over a Deployment",
			flux:  map[string]any{"spec": map[string]any{"path": "./app", "patches": []any{map[string]any{"target": map[string]any{"kind": "ConfigMap", "name": "a.*"}, "patch": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: any\ndata:\n  extra: \"1\"\n"}, map[string]any{"patch": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        image: new\n"}}}},
			files: map[string]string{"app/kustomization.yaml": kfileOf("d.yaml", "cm.yaml"), "app/d.yaml": plainDeployment, "app/cm.yaml": plainCM("ab", "")},
			plain: true,
		},
		{
			name:  "patches in the kustomization file, with targetNamespace after them",
			flux:  map[string]any{"spec": map[string]any{"path": "./app", "targetNamespace": "team"}},
			files: map[string]string{"app/kustomization.yaml": kfileOf("tf.yaml") + "patches:\n- target:\n    kind: Terraform\n    namespace: flux-system\n  patch: |\n    - op: add\n      path: /spec/vars\n      value: [{name: a, value: b}]\n", "app/tf.yaml": plainTF("app", "  namespace: flux-system\n")},
			plain: true,
		},
		{
			name:  "a patch that adds an annotation that is no string",
			flux:  map[string]any{"spec": map[string]any{"path": "./app", "patches": []any{map[string]any{"target": map[string]any{"kind": "ConfigMap"}, "patch": "- op: add\n  path: /metadata/annotations/layer\n  value: 1\n"}, map[string]any{"target": map[string]any{"kind": "ConfigMap"}, "patch": "- op: add\n  path: /data/x\n  value: \"2\"\n"}}}},
			files: map[string]string{"app/kustomization.yaml": kfileOf("cm.yaml"), "app/cm.yaml": plainCM("a", "  annotations: {b: c}\n")},
			plain: true,
		},
		{
			name:  "a patch that renames an object is krusty's",
			flux:  map[string]any{"spec": map[string]any{"path": "./app", "patches": []any{map[string]any{"target": map[string]any{"kind": "ConfigMap"}, "patch": "- op: replace\n  path: /metadata/name\n  value: b\n"}}}},
			files: map[string]string{"app/kustomization.yaml": kfileOf("cm.yaml", "d.yaml"), "app/cm.yaml": plainCM("a", ""), "app/d.yaml": plainDeployment},
		},
		{
			name:  "a patch that deletes an object is krusty's",
			flux:  map[string]any{"spec": map[string]any{"path": "./app", "patches": []any{map[string]any{"patch": "$patch: delete\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"}}}},
			files: map[string]string{"app/kustomization.yaml": kfileOf("cm.yaml", "b.yaml"), "app/cm.yaml": plainCM("a", ""), "app/b.yaml": plainCM("b", "")},
		},
		{
			name:  "a patch that removes every annotation is krusty's",
			flux:  map[string]any{"spec": map[string]any{"path": "./app", "patches": []any{map[string]any{"target": map[string]any{"kind": "ConfigMap"}, "patch": "- op: remove\n  path: /metadata/annotations\n"}}}},
			files: map[string]string{"app/kustomization.yaml": kfileOf("cm.yaml"), "app/cm.yaml": plainCM("a", "  annotations: {b: c}\n")},
		},
		{
			name:    "a patch of what is not there is said as krusty says it",
			flux:    map[string]any{"spec": map[string]any{"path": "./app", "patches": []any{map[string]any{"patch": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gone\ndata: {x: y}\n"}}}},
			files:   map[string]string{"app/kustomization.yaml": kfileOf("cm.yaml"), "app/cm.yaml": plainCM("a", "")},
			problem: "no resource matches strategic merge patch",
		},
		{
			name:  "a patch that is neither kind of patch is said as krusty says it",
			flux:  map[string]any{"spec": map[string]any{"path": "./app", "patches": []any{map[string]any{"patch": "[oops"}}}},
			files: map[string]string{"app/kustomization.yaml": kfileOf("cm.yaml"), "app/cm.yaml": plainCM("a", "")},
		},
		{
			name:    "a patch that panics in kustomize is said as krusty says it",
			flux:    map[string]any{"spec": map[string]any{"path": "./app", "patches": []any{map[string]any{"target": map[string]any{"kind": "ConfigMap"}, "patch": "- op: replace\n  path: \"\"\n"}}}},
			files:   map[string]string{"app/kustomization.yaml": kfileOf("cm.yaml"), "app/cm.yaml": plainCM("a", "")},
			problem: "panic",
		},
		{
			name:  "a patch from a file is krusty's",
			files: map[string]string{"app/kustomization.yaml": kfileOf("cm.yaml") + "patches:\n- path: p.yaml\n", "app/cm.yaml": plainCM("a", ""), "app/p.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata: {x: y}\n"},
		},
		{
			name: "a Component with commonAnnotations and a patch, in the kustomization file",
			files: map[string]string{
				"app/kustomization.yaml":               kfileOf("tf.yaml", "cm.yaml") + "components:\n- ../components/common\n",
				"app/tf.yaml":                          plainTF("app", ""),
				"app/cm.yaml":                          plainCM("a", "  annotations: {team: mine}\n"),
				"components/common/kustomization.yaml": plainComponent,
			},
			plain: true,
		},
		{
			name: "a Component of spec.components, after the kustomization file's, with the Kustomization's patches and commonAnnotations of the file",
			flux: map[string]any{"spec": map[string]any{"path": "./app", "components": []any{"../components/second"}, "patches": []any{map[string]any{"target": map[string]any{"kind": "Terraform"}, "patch": "- op: replace\n  path: /spec/interval\n  value: 5m\n"}}}},
			files: map[string]string{
				"app/kustomization.yaml":               kfileOf("tf.yaml") + "commonAnnotations: {owner: app}\ncomponents:\n- ../components/common\n",
				"app/tf.yaml":                          plainTF("app", ""),
				"components/common/kustomization.yaml": plainComponent,
				"components/second/kustomization.yml":  "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\ncommonAnnotations:\n  team: second\n",
			},
			plain: true,
		},
		{
			name:  "commonAnnotations over a Deployment are krusty's",
			files: map[string]string{"app/kustomization.yaml": kfileOf("d.yaml") + "commonAnnotations: {owner: app}\n", "app/d.yaml": plainDeployment},
		},
		{
			name:    "a Component that is a Kustomization is said as krusty says it",
			files:   map[string]string{"app/kustomization.yaml": kfileOf("cm.yaml") + "components:\n- ../c\n", "app/cm.yaml": plainCM("a", ""), "c/kustomization.yaml": kfileOf("x.yaml"), "c/x.yaml": plainCM("x", "")},
			problem: "expected kind 'Component'",
		},
		{
			name:  "a missing Component is said as krusty says it",
			files: map[string]string{"app/kustomization.yaml": kfileOf("cm.yaml") + "components:\n- ../gone\n", "app/cm.yaml": plainCM("a", "")},
		},
		{
			name:  "a Component with resources is krusty's",
			files: map[string]string{"app/kustomization.yaml": kfileOf("cm.yaml") + "components:\n- ../c\n", "app/cm.yaml": plainCM("a", ""), "c/kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources: [x.yaml]\n", "c/x.yaml": plainCM("x", "")},
		},
		{
			name:  "a Component above the kustomization is krusty's",
			files: map[string]string{"app/kustomization.yaml": kfileOf("cm.yaml") + "components:\n- ..\n", "app/cm.yaml": plainCM("a", ""), "kustomization.yaml": plainComponent},
		},
		{
			name:  "commonAnnotations that name krusty's origin annotation",
			files: map[string]string{"app/kustomization.yaml": kfileOf("cm.yaml") + "commonAnnotations: {config.kubernetes.io/origin: \"path: elsewhere.yaml\"}\n", "app/cm.yaml": plainCM("a", "")},
			plain: true,
		},
		{
			name:  "a JSON6902 patch and a strategic merge patch of one object, and a Component's",
			flux:  map[string]any{"spec": map[string]any{"path": "./app", "patches": []any{map[string]any{"target": map[string]any{"kind": "Terraform"}, "patch": "- op: add\n  path: /spec/vars/-\n  value: {name: b, value: \"2\"}\n"}, map[string]any{"patch": "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata:\n  name: app\n  annotations: {x: y}\nspec:\n  approvePlan: auto\n"}}}},
			files: map[string]string{"app/kustomization.yaml": kfileOf("tf.yaml") + "components:\n- ../components/common\n", "app/tf.yaml": plainTF("app", "") + "  vars:\n  - name: a\n    value: \"1\"\n", "components/common/kustomization.yaml": plainComponent},
			plain: true,
		},
		{
			name:  "a namespace and commonAnnotations in the kustomization file",
			files: map[string]string{"app/kustomization.yaml": kfileOf("cm.yaml", "tf.yaml") + "namespace: team\ncommonAnnotations:\n  owner: app\n", "app/cm.yaml": plainCM("a", ""), "app/tf.yaml": plainTF("app", "")},
			plain: true,
		},
		{
			name:  "a local-config object is dropped as krusty drops it",
			files: map[string]string{"app/kustomization.yaml": kfileOf("a.yaml", "b.yaml"), "app/a.yaml": plainCM("a", "  annotations: {config.kubernetes.io/local-config: \"true\"}\n"), "app/b.yaml": plainCM("b", "")},
		},
		{
			name:  "a file that is a symbolic link out of the repository is refused as krusty refuses it",
			files: map[string]string{"app/kustomization.yaml": kfileOf("a.yaml")},
		},
		{
			name:  "a kustomization file that is a symbolic link out of the repository is refused as Flux's generator refuses it",
			files: map[string]string{"app/a.yaml": plainCM("a", "")},
		},
		{
			name:    "a resource that is a named pipe is refused as krusty refuses it",
			files:   map[string]string{"app/kustomization.yaml": kfileOf("a.yaml", "p.yaml"), "app/a.yaml": plainCM("a", "")},
			problem: "named pipe",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for name, body := range tt.files {
				testkit.WriteFile(t, filepath.Join(root, filepath.FromSlash(name)), body)
			}
			if strings.Contains(tt.name, "symbolic link") {
				name, body := "a.yaml", plainCM("a", "")
				if strings.Contains(tt.name, "kustomization file") {
					name, body = "kustomization.yaml", kfileOf("a.yaml")
				}
				outside := filepath.Join(t.TempDir(), name)
				testkit.WriteFile(t, outside, body)
				if err := os.Symlink(outside, filepath.Join(root, "app", name)); err != nil {
					t.Fatal(err)
				}
			}
			if strings.Contains(tt.name, "named pipe") {
				if err := syscall.Mkfifo(filepath.Join(root, "app", "p.yaml"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			f := flux
			if tt.flux != nil {
				f = tt.flux
			}
			if tt.entry != nil {
				f = nil
			}
			want := buildWith(t, root, "app", f, tt.entry, false)
			got := buildWith(t, root, "app", f, tt.entry, true)
			opts := []cmp.Option{cmp.AllowUnexported(renderedObject{}), cmpopts.IgnoreFields(builtResult{}, "Plain"), cmpopts.EquateEmpty()}
			if diff := cmp.Diff(want, got, opts...); diff != "" {
				t.Errorf("build(app) plain = %+v, want krusty's %+v; diff (-krusty +plain):\n%s", got, want, diff)
			}
			if tt.problem != "" && (want.Problem == nil || !strings.Contains(want.Problem.String(), tt.problem)) && !strings.Contains(want.Problems.Error(), tt.problem) {
				t.Errorf("build(app) problem = %v (and %v), want one that says %q", want.Problem, want.Problems, tt.problem)
			}
			if got.Plain != tt.plain {
				t.Errorf("build(app) plain = %v, want %v", got.Plain, tt.plain)
			}
			if tt.plain && (want.Problem != nil || len(want.Objects) == 0) {
				t.Errorf("build(app) = %+v, want objects and no problem", want)
			}
		})
	}
}

// TestPlainResources checks which kustomization files are plain.
func TestPlainResources(t *testing.T) {
	tests := []struct {
		name, kfile string
		want        []string
		ok          bool
	}{
		{"resources", kfileOf("a.yaml", "./b/c.yml"), []string{"a.yaml", "./b/c.yml"}, true},
		{"origin annotations", kfileOf("a.yaml") + "buildMetadata: [originAnnotations]\n", []string{"a.yaml"}, true},
		{"no resources", "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n", nil, false},
		{"a Component", "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources: [a.yaml]\n", nil, false},
		{"a directory", kfileOf("base"), nil, false},
		{"a path out of the directory", kfileOf("../a.yaml"), nil, false},
		{"an absolute path", kfileOf("/a.yaml"), nil, false},
		{"a URL", kfileOf("https://example.com/a.yaml"), nil, false},
		{"a namespace", kfileOf("a.yaml") + "namespace: x\n", nil, false},
		{"labels", kfileOf("a.yaml") + "labels: [{pairs: {a: b}}]\n", nil, false},
		{"a generator", kfileOf("a.yaml") + "configMapGenerator: [{name: x, literals: [a=b]}]\n", nil, false},
		{"other build metadata", kfileOf("a.yaml") + "buildMetadata: [managedByLabel]\n", nil, false},
		{"sort options", kfileOf("a.yaml") + "sortOptions: {order: legacy}\n", nil, false},
		{"bases", "bases: [a.yaml]\n", nil, false},
		{"not YAML", "resources: [\n", nil, false},
		{"a key in another case", "Resources: [a.yaml]\n", nil, false},
		{"a key twice", kfileOf("a.yaml") + "resources: [b.yaml]\n", nil, false},
		{"a number", "resources: [1]\n", nil, false},
		{"two documents", kfileOf("a.yaml") + "---\n" + kfileOf("b.yaml"), nil, false},
		{"an alias", "resources: &r [a.yaml]\n", nil, false},
		{"another apiVersion", "apiVersion: kustomize.config.k8s.io/v1\nresources: [a.yaml]\n", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := plainResources([]byte(tt.kfile))
			if ok != tt.ok || !cmp.Equal(got, tt.want, cmpopts.EquateEmpty()) {
				t.Errorf("plainResources(%q) = %q, %v, want %q, %v", tt.kfile, got, ok, tt.want, tt.ok)
			}
		})
	}
	// One loader answers each content as plainResources does, the second
	// time from what it kept, whatever came between.
	l := &loader{}
	for round := range 2 {
		for _, tt := range tests {
			k, ok := l.plainKustomization([]byte(tt.kfile), false)
			got := k.resources
			if ok && k.transforms() {
				got, ok = nil, false
			}
			if ok != tt.ok || !cmp.Equal(got, tt.want, cmpopts.EquateEmpty()) {
				t.Errorf("plainKustomization(%q) round %d = %q, %v, want %q, %v", tt.kfile, round, got, ok, tt.want, tt.ok)
			}
		}
	}
	if len(l.plainKustomizations) != len(tests) {
		t.Errorf("plainKustomization kept %d answers, want one for each of the %d contents", len(l.plainKustomizations), len(tests))
	}
}

// TestPlainGenerated checks which Flux Kustomizations a plain build
// takes, and what it applies of their spec.
func TestPlainGenerated(t *testing.T) {
	target := map[string]any{"kind": "Terraform", "labelSelector": "a=b"}
	tests := []struct {
		spec   map[string]any
		want   plainKust
		wantOK bool
	}{
		{spec: nil, wantOK: true},
		{spec: map[string]any{"path": "./x", "prune": true, "postBuild": map[string]any{}, "decryption": map[string]any{}}, wantOK: true},
		{spec: map[string]any{"targetNamespace": "team", "namePrefix": "p-", "nameSuffix": "-s"}, want: plainKust{namespace: "team", prefix: "p-", suffix: "-s"}, wantOK: true},
		{spec: map[string]any{"targetNamespace": 3}},
		{spec: map[string]any{"targetNamespace": ""}},
		{
			spec:   map[string]any{"patches": []any{map[string]any{"patch": "- op: add", "target": target}, map[string]any{"patch": "kind: X"}}},
			want:   plainKust{patches: []kustypes.Patch{{Patch: "- op: add", Target: &kustypes.Selector{ResId: resid.ResId{Gvk: resid.Gvk{Kind: "Terraform"}}, LabelSelector: "a=b"}}, {Patch: "kind: X"}}},
			wantOK: true,
		},
		{spec: map[string]any{"patches": []any{map[string]any{"path": "p.yaml"}}}},
		{spec: map[string]any{"patches": []any{map[string]any{"patch": "x", "target": map[string]any{"kind": 1}}}}},
		{spec: map[string]any{"patches": "x"}},
		{spec: map[string]any{"components": []any{"../c", "./d"}}, want: plainKust{components: []string{"../c", "./d"}}, wantOK: true},
		{spec: map[string]any{"components": []any{"../c"}, "ignoreMissingComponents": true}},
		{spec: map[string]any{"components": []any{"https://example.com/c"}}},
		{spec: map[string]any{"components": []any{"/abs"}}},
	}
	for _, f := range generatorFields {
		switch f {
		case "targetNamespace", "namePrefix", "nameSuffix", "patches", "components":
			continue
		}
		tests = append(tests, struct {
			spec   map[string]any
			want   plainKust
			wantOK bool
		}{spec: map[string]any{"path": "./x", f: "v"}})
	}
	for _, tt := range tests {
		got, ok := plainGenerated(map[string]any{"spec": tt.spec})
		if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(plainKust{}), cmpopts.EquateComparable(resid.Gvk{}), cmpopts.EquateEmpty()); diff != "" || ok != tt.wantOK {
			t.Errorf("plainGenerated(%v) = %+v, %v, want %+v, %v; diff (-want +got):\n%s", tt.spec, got, ok, tt.want, tt.wantOK, diff)
		}
	}
}

// TestAnnotationsPlain: where annotationsPlain says kustomize's
// RemoveBuildAnnotations would change nothing, the object it leaves is
// the object as read; everywhere else, the build still calls it.
func TestAnnotationsPlain(t *testing.T) {
	tests := []struct {
		name, meta string
		want       bool
	}{
		{"no annotations", "metadata:\n  name: a\n", true},
		{"empty annotations", "metadata:\n  name: a\n  annotations: {}\n", true},
		{"null annotations", "metadata:\n  name: a\n  annotations:\n", false},
		{"strings", "metadata:\n  name: a\n  annotations:\n    z: \"1\"\n    a: b\n", true},
		{"a number", "metadata:\n  name: a\n  annotations:\n    layer: 1\n", false},
		{"a boolean", "metadata:\n  name: a\n  annotations:\n    x: true\n", false},
		{"a build annotation", "metadata:\n  name: a\n  annotations:\n    config.kubernetes.io/index: \"0\"\n", false},
		{"a duplicate key", "metadata:\n  name: a\n  annotations:\n    a: b\n    a: c\n", false},
		{"an anchor, which kustomize's reader drops", "metadata:\n  name: a\n  annotations:\n    a: &v b\n", true},
		{"a nested map", "metadata:\n  name: a\n  annotations:\n    a:\n      b: c\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := "apiVersion: v1\nkind: ConfigMap\n" + tt.meta + "data:\n  k: v\n"
			rs, err := resourceFactory.SliceFromBytes([]byte(doc))
			if err != nil || len(rs) != 1 {
				t.Fatalf("SliceFromBytes(%q) = %d, %v", doc, len(rs), err)
			}
			r := rs[0]
			if got := annotationsPlain(r); got != tt.want {
				t.Errorf("annotationsPlain(%q) = %v, want %v", tt.meta, got, tt.want)
			}
			if !annotationsPlain(r) {
				return
			}
			before, err := objectMap(r)
			if err != nil {
				t.Fatal(err)
			}
			r.RemoveBuildAnnotations()
			after, err := objectMap(r)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("RemoveBuildAnnotations changed an object annotationsPlain(%q) passes (-before +after):\n%s", tt.meta, diff)
			}
		})
	}
}

// TestPlainKustomizationOf checks what a plain build reads of a
// kustomization file or a Component's, beyond its resources.
func TestPlainKustomizationOf(t *testing.T) {
	patch := kustypes.Patch{Patch: "- op: add\n  path: /x\n  value: 1\n", Target: &kustypes.Selector{ResId: resid.ResId{Gvk: resid.Gvk{Kind: "Terraform"}, Name: "a.*"}}}
	const patches = "patches:\n- target:\n    kind: Terraform\n    name: a.*\n  patch: |\n    - op: add\n      path: /x\n      value: 1\n"
	tests := []struct {
		name, file string
		component  bool
		want       plainKust
		ok         bool
	}{
		{name: "patches, components and commonAnnotations", file: kfileOf("a.yaml") + patches + "components: [../c, ./d]\ncommonAnnotations: {team: x}\n",
			want: plainKust{resources: []string{"a.yaml"}, patches: []kustypes.Patch{patch}, components: []string{"../c", "./d"}, annotations: map[string]string{"team": "x"}}, ok: true},
		{name: "namespace, namePrefix and nameSuffix", file: kfileOf("a.yaml") + "namespace: n\nnamePrefix: p-\nnameSuffix: -s\n",
			want: plainKust{resources: []string{"a.yaml"}, namespace: "n", prefix: "p-", suffix: "-s"}, ok: true},
		{name: "a Component", file: "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n" + patches + "commonAnnotations: {team: x}\n", component: true,
			want: plainKust{patches: []kustypes.Patch{patch}, annotations: map[string]string{"team": "x"}}, ok: true},
		{name: "a Component without a kind", file: patches, component: true},
		{name: "a Kustomization read as a Component", file: kfileOf("a.yaml"), component: true},
		{name: "a Component with resources", file: "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources: [a.yaml]\n", component: true},
		{name: "a Component with a namespace", file: "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nnamespace: x\n", component: true},
		{name: "a patch from a file", file: kfileOf("a.yaml") + "patches:\n- path: p.yaml\n"},
		{name: "a patch with options", file: kfileOf("a.yaml") + "patches:\n- patch: x\n  options: {allowNameChange: true}\n"},
		{name: "a target field kustomize does not know", file: kfileOf("a.yaml") + "patches:\n- patch: x\n  target: {kinds: Terraform}\n"},
		{name: "a patch key twice", file: kfileOf("a.yaml") + "patches:\n- patch: x\n  patch: y\n"},
		{name: "an annotation that is a number", file: kfileOf("a.yaml") + "commonAnnotations: {a: 1}\n"},
		{name: "a remote component", file: kfileOf("a.yaml") + "components: [github.com/x/y]\n"},
		{name: "an absolute component", file: kfileOf("a.yaml") + "components: [/c]\n"},
		{name: "a component given as a URL", file: kfileOf("a.yaml") + "components: ['https://example.com/c']\n"},
		{name: "no components", file: kfileOf("a.yaml") + "components: []\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := plainKustomizationOf([]byte(tt.file), tt.component)
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(plainKust{}), cmpopts.EquateComparable(resid.Gvk{}), cmpopts.EquateEmpty()); diff != "" || ok != tt.ok {
				t.Errorf("plainKustomizationOf(%q, %v) = %+v, %v, want %+v, %v; diff (-want +got):\n%s", tt.file, tt.component, got, ok, tt.want, tt.ok, diff)
			}
		})
	}
}
