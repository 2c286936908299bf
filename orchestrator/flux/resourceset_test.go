package flux

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/internal/testkit"
)

// resourceSetOf reads a ResourceSet written as YAML into the map a build
// renders.
func resourceSetOf(t *testing.T, text string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(text), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// made names what an expansion made: kind/namespace/name, with one
// label or field picked out where a case reads it.
func made(objs []map[string]any) []string {
	var out []string
	for _, m := range objs {
		md, _ := m["metadata"].(map[string]any)
		out = append(out, m["kind"].(string)+"/"+str(md["namespace"])+"/"+str(md["name"]))
	}
	return out
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func TestExpandResourceSet(t *testing.T) {
	const head = "apiVersion: fluxcd.controlplane.io/v1\nkind: ResourceSet\nmetadata:\n  name: apps\n  namespace: flux-system\nspec:\n"
	tests := []struct {
		name    string
		spec    string
		want    []string
		warning string
		err     string
	}{
		{
			name: "a Kustomization per inline input",
			spec: `  inputs:
    - namespace: media
    - namespace: network
  resources:
    - apiVersion: kustomize.toolkit.fluxcd.io/v1
      kind: Kustomization
      metadata:
        name: << inputs.namespace >>-apps
        namespace: flux-system
      spec:
        path: ./kubernetes/apps/<< inputs.namespace >>
`,
			want: []string{"Kustomization/flux-system/media-apps", "Kustomization/flux-system/network-apps"},
		},
		{
			name: "a multi-document template, functions and the provider",
			spec: `  inputs:
    - tenant: Team One
  resourcesTemplate: |
    <<- range $i := until 2 >>
    ---
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: << inputs.tenant | slugify >>-<< $i >>
      namespace: << inputs.provider.namespace >>
    data:
      from: << inputs.provider.kind >>/<< inputs.provider.name >>
    <<- end >>
`,
			want: []string{"ConfigMap/flux-system/team-one-0", "ConfigMap/flux-system/team-one-1"},
		},
		{
			name: "disabled objects left out, one of two the same kept",
			spec: `  inputs:
    - {name: a, state: disabled}
    - {name: b, state: enabled}
    - {name: b, state: enabled}
  resources:
    - apiVersion: v1
      kind: ConfigMap
      metadata:
        name: << inputs.name >>
        namespace: x
        annotations:
          fluxcd.controlplane.io/reconcile: << inputs.state >>
`,
			want: []string{"ConfigMap/x/b"},
		},
		{
			name: "steps",
			spec: `  steps:
    - name: first
      resources:
        - {apiVersion: v1, kind: ConfigMap, metadata: {name: one, namespace: x}}
    - name: second
      resources:
        - {apiVersion: v1, kind: ConfigMap, metadata: {name: two, namespace: x}}
`,
			want: []string{"ConfigMap/x/one", "ConfigMap/x/two"},
		},
		{
			name: "one object in two steps",
			spec: `  steps:
    - name: first
      resources:
        - {apiVersion: v1, kind: ConfigMap, metadata: {name: one, namespace: x}}
    - name: second
      resources:
        - {apiVersion: v1, kind: ConfigMap, metadata: {name: one, namespace: x}}
`,
			err: `duplicate resource /ConfigMap/x/one in step "second", already defined in step "first"`,
		},
		{
			name: "inline inputs beside providers",
			spec: `  inputs:
    - {name: a}
  inputsFrom:
    - {kind: ResourceSetInputProvider, name: prs}
  resources:
    - {apiVersion: v1, kind: ConfigMap, metadata: {name: << inputs.name >>, namespace: x}}
`,
			want:    []string{"ConfigMap/x/a"},
			warning: "it also takes input sets from 1 input provider(s) in the cluster (spec.inputsFrom), which strata does not read: only what its 1 inline input set(s) make is loaded",
		},
		{
			name: "inputs permuted with providers",
			spec: `  inputStrategy: {name: Permute}
  inputs:
    - {name: a}
  inputsFrom:
    - {kind: ResourceSetInputProvider, name: prs}
  resources:
    - {apiVersion: v1, kind: ConfigMap, metadata: {name: x, namespace: x}}
`,
			warning: "its input sets come from 1 input provider(s) in the cluster (spec.inputsFrom), which strata does not read: nothing it makes is loaded",
		},
		{
			name: "an input no set has",
			spec: `  inputs:
    - {name: a}
  resources:
    - {apiVersion: v1, kind: ConfigMap, metadata: {name: << inputs.nmae >>, namespace: x}}
`,
			err: `map has no entry for key "nmae"`,
		},
		{
			name: "steps beside resources",
			spec: `  resources:
    - {apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: x}}
  steps:
    - {name: s, resources: [{apiVersion: v1, kind: ConfigMap, metadata: {name: b, namespace: x}}]}
`,
			err: "spec.steps is mutually exclusive with spec.resources and spec.resourcesTemplate",
		},
		{
			name: "a list too long to make",
			spec: `  resourcesTemplate: |
    << range until 100000000 >>x<< end >>
`,
			err: "until: strata makes at most 10000 elements",
		},
		{
			name: "a string too long to make",
			spec: `  resourcesTemplate: |
    << repeat 1000000000 "abc" >>
`,
			err: "repeat: strata makes at most",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, warning, err := expandResourceSet(context.Background(), resourceSetOf(t, head+tt.spec))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("expandResourceSet() error = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("expandResourceSet() error = %v", err)
			}
			if diff := cmp.Diff(tt.want, made(objs)); diff != "" {
				t.Errorf("expandResourceSet() objects mismatch (-want +got):\n%s", diff)
			}
			if warning != tt.warning {
				t.Errorf("expandResourceSet() warning = %q, want %q", warning, tt.warning)
			}
		})
	}
}

// TestExpandResourceSetMetadata: every object gets the operator's owner
// labels and spec.commonMetadata, over its own; a template is the
// resource written as YAML, so a quoted "<< inputs.replicas >>" is
// written unquoted and reads back as a number, as the operator reads it.
func TestExpandResourceSetMetadata(t *testing.T) {
	rs := resourceSetOf(t, `apiVersion: fluxcd.controlplane.io/v1
kind: ResourceSet
metadata: {name: apps, namespace: flux-system}
spec:
  commonMetadata:
    labels: {team: platform, app: common}
    annotations: {note: shared}
  inputs:
    - {replicas: 2}
  resources:
    - apiVersion: v1
      kind: ConfigMap
      metadata:
        name: a
        namespace: x
        labels: {app: own, keep: "yes"}
      data:
        replicas: "<< inputs.replicas >>"
`)
	objs, _, err := expandResourceSet(context.Background(), rs)
	if err != nil {
		t.Fatalf("expandResourceSet() error = %v", err)
	}
	want := []map[string]any{{
		"apiVersion": "v1",
		"kind":       "ConfigMap",
		"metadata": map[string]any{
			"name": "a", "namespace": "x",
			"labels": map[string]any{
				"app": "common", "keep": "yes", "team": "platform",
				"resourceset.fluxcd.controlplane.io/name":      "apps",
				"resourceset.fluxcd.controlplane.io/namespace": "flux-system",
			},
			"annotations": map[string]any{"note": "shared"},
		},
		"data": map[string]any{"replicas": float64(2)},
	}}
	if diff := cmp.Diff(want, objs); diff != "" {
		t.Errorf("expandResourceSet() mismatch (-want +got):\n%s", diff)
	}
}

// TestLoadResourceSet loads an entry directory whose Flux Kustomizations
// a ResourceSet makes, one per namespace, as a Flux Operator repository
// bootstraps: the stacks under each are found, and a ResourceSet whose
// template fails is a problem of the build that renders it.
func TestLoadResourceSet(t *testing.T) {
	files := map[string]string{
		"clusters/dev/apps.yaml": `apiVersion: fluxcd.controlplane.io/v1
kind: ResourceSet
metadata:
  name: cluster-apps
  namespace: flux-system
spec:
  inputs:
    - namespace: network
    - namespace: data
  resources:
    - apiVersion: kustomize.toolkit.fluxcd.io/v1
      kind: Kustomization
      metadata:
        name: << inputs.namespace >>-apps
        namespace: flux-system
      spec:
        interval: 1h
        path: ./apps/<< inputs.namespace >>
        prune: true
        sourceRef: {kind: GitRepository, name: flux-system}
`,
		"apps/network/terraform.yaml": terraformObject("vpc"),
		"apps/data/terraform.yaml":    terraformObject("db"),
	}
	root := writeDevRepo(t, files)
	env, err := Load(context.Background(), filepath.Join(root, "clusters", "dev"))
	if err != nil {
		t.Fatalf("Load(clusters/dev) = %v", err)
	}
	var got []string
	for _, s := range env.Stacks {
		got = append(got, s.Name+" "+s.Kustomization)
	}
	if diff := cmp.Diff([]string{"db data-apps", "vpc network-apps"}, got); diff != "" {
		t.Errorf("Load(clusters/dev) stacks mismatch (-want +got):\n%s", diff)
	}

	testkit.WriteFile(t, filepath.Join(root, "clusters", "dev", "apps.yaml"), strings.ReplaceAll(files["clusters/dev/apps.yaml"], "inputs.namespace >>-apps", "inputs.nmespace >>-apps"))
	_, err = Load(context.Background(), filepath.Join(root, "clusters", "dev"))
	if err == nil || !strings.Contains(err.Error(), "the Flux Operator cannot expand ResourceSet/cluster-apps") || !strings.Contains(err.Error(), "clusters/dev/apps.yaml") {
		t.Errorf("Load(clusters/dev) with a misspelt input = %v, want a problem that names the ResourceSet and its file", err)
	}
}
