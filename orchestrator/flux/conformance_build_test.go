package flux

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/environment"
)

// TestKustomizationBuildConformance ports scenarios of kustomize-controller's
// own tests (internal/controller/kustomization_*_test.go) that decide what
// a Flux Kustomization renders, each named after the peer's test and
// scenario, with fixtures of our own: the Terraform object the build
// renders, or the problem that fails it.
func TestKustomizationBuildConformance(t *testing.T) {
	const tfObject = "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata:\n  name: app\n  namespace: flux-system\n  labels:\n    tenant: test\n  annotations:\n    note: ${greeting:=hello}\nspec:\n  interval: 10m\n  path: ./stacks\n  sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}\n"
	tests := []struct {
		name string
		// spec is added to the Kustomization's spec.
		spec string
		// files are more files of apps/app.
		files map[string]string
		// labels and annotations are what the Terraform object gets, or
		// problem what fails the build.
		labels, annotations map[string]string
		problem             string
		// stack is the stack's name, "app" when empty; noStack says the
		// build renders none.
		stack   string
		noStack bool
		// opts are the load's options (feature gates).
		opts Options
	}{
		{
			name:        "CommonMetadata/sets labels and annotations",
			spec:        "  commonMetadata:\n    labels: {tenant: tenant-1, team: a}\n    annotations: {owner: ops, strata.dev/layer: services}\n",
			labels:      map[string]string{"tenant": "tenant-1", "team": "a"},
			annotations: map[string]string{"note": "${greeting:=hello}", "owner": "ops", "strata.dev/layer": "services"},
		},
		{
			name:        "VarsubAlways/WithVariables strategy skips substitution without variables",
			spec:        "  postBuild:\n    substituteStrategy: WithVariables\n",
			labels:      map[string]string{"tenant": "test"},
			annotations: map[string]string{"note": "${greeting:=hello}"},
		},
		{
			name:        "VarsubAlways/Always strategy substitutes defaults without variables",
			spec:        "  postBuild:\n    substituteStrategy: Always\n",
			labels:      map[string]string{"tenant": "test"},
			annotations: map[string]string{"note": "hello"},
		},
		{
			name:    "ConfigurationError/invalid cel expression",
			spec:    "  healthCheckExprs:\n    - apiVersion: v1\n      kind: ConfigMap\n      inProgress: \"foo.\"\n      current: \"true\"\n",
			problem: "failed to create custom status evaluator for healthchecks[0]: failed to parse the expression InProgress: failed to parse the CEL expression 'foo.': ERROR: <input>:1:5: Syntax error: no viable alternative at input '.'",
		},
		{
			name:        "ConfigurationError/health check expressions over the object's fields",
			spec:        "  healthCheckExprs:\n    - apiVersion: v1\n      kind: ConfigMap\n      current: \"status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'True')\"\n",
			labels:      map[string]string{"tenant": "test"},
			annotations: map[string]string{"note": "${greeting:=hello}"},
		},
		{
			name:    "DependsOn/fails terminally with invalid readyExpr",
			spec:    "  dependsOn:\n    - name: app\n      readyExpr: self.generation == deps.generation\n",
			problem: "spec.dependsOn[0].readyExpr: failed to parse the CEL expression 'self.generation == deps.generation': ERROR: <input>:1:20: undeclared reference to 'deps'",
		},
		{
			name:    "ConfigurationError/object level workload identity feature gate disabled",
			spec:    "  decryption: {provider: sops, serviceAccountName: sops-sa}\n",
			problem: "to use spec.decryption.serviceAccountName please enable the ObjectLevelWorkloadIdentity feature gate in the controller",
		},
		{
			name:        "ConfigurationError/object level workload identity feature gate enabled",
			spec:        "  decryption: {provider: sops, serviceAccountName: sops-sa}\n",
			opts:        Options{ObjectLevelWorkloadIdentity: true},
			labels:      map[string]string{"tenant": "test"},
			annotations: map[string]string{"note": "${greeting:=hello}"},
		},
		{
			name:        "NamePrefixSuffix/sets name prefix and suffix",
			spec:        "  namePrefix: prefix-\n  nameSuffix: -suffix\n  targetNamespace: team\n",
			labels:      map[string]string{"tenant": "test"},
			annotations: map[string]string{"note": "${greeting:=hello}"},
			stack:       "prefix-app-suffix",
		},
		{
			name:    "NamePrefixSuffix/a sourceRef without a namespace is to the target namespace",
			spec:    "  targetNamespace: team\n",
			files:   map[string]string{"apps/app/terraform.yaml": strings.Replace(tfObject, ", namespace: flux-system}", "}", 1)},
			problem: "apps/app/terraform.yaml: Terraform/app: spec.sourceRef names GitRepository/flux-system without a namespace, so Flux looks for it in the object's own namespace, team, which has none: it fails the object (source not found) (fix: add namespace: flux-system to spec.sourceRef in apps/app/terraform.yaml",
		},
		{
			name:        "FluxTransformers/applies patches",
			spec:        "  patches:\n    - target: {kind: Terraform}\n      patch: |\n        - op: add\n          path: /metadata/labels/patch1\n        \n          value: inline-json\n    - patch: |\n        apiVersion: infra.contrib.fluxcd.io/v1alpha2\n        kind: Terraform\n        metadata:\n          name: app\n          namespace: flux-system\n          labels:\n            patch2: inline-yaml\n",
			labels:      map[string]string{"tenant": "test", "patch1": "inline-json", "patch2": "inline-yaml"},
			annotations: map[string]string{"note": "${greeting:=hello}"},
		},
		{
			name:        "MultiplePatchDelete/multiple patch delete in single patch should work",
			spec:        "  patches:\n    - patch: |\n        $patch: delete\n        apiVersion: v1\n        kind: ConfigMap\n        metadata: {name: cm1, namespace: flux-system}\n        ---\n        $patch: delete\n        apiVersion: v1\n        kind: ConfigMap\n        metadata: {name: cm2, namespace: flux-system}\n",
			files:       map[string]string{"apps/app/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm1, namespace: flux-system}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm2, namespace: flux-system}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm3, namespace: flux-system}\n"},
			labels:      map[string]string{"tenant": "test"},
			annotations: map[string]string{"note": "${greeting:=hello}"},
		},
		{
			name:        "VarsubOptional/replaces vars tolerating absent ConfigMap",
			spec:        "  postBuild:\n    substitute: {var_substitution_enabled: \"true\"}\n    substituteFrom:\n      - {kind: ConfigMap, name: absent, optional: true}\n      - {kind: Secret, name: absent, optional: true}\n",
			labels:      map[string]string{"tenant": "test"},
			annotations: map[string]string{"note": "hello"},
		},
		{
			name:        "VarsubOptional/replaces vars from optional ConfigMap",
			spec:        "  postBuild:\n    substitute: {var_substitution_enabled: \"true\"}\n    substituteFrom:\n      - {kind: ConfigMap, name: vars, optional: true}\n",
			files:       map[string]string{"clusters/dev/vars.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: vars, namespace: flux-system}\ndata: {greeting: hi}\n"},
			labels:      map[string]string{"tenant": "test"},
			annotations: map[string]string{"note": "hi"},
		},
		{
			name:        "BuildMetadata/sets origin annotations",
			spec:        "  buildMetadata: [originAnnotations]\n",
			labels:      map[string]string{"tenant": "test"},
			annotations: map[string]string{"note": "${greeting:=hello}", "config.kubernetes.io/origin": "path: terraform.yaml\n"},
		},
		{
			name:        "VarsubNumberBool",
			spec:        "  postBuild:\n    substitute:\n      q: '\"'\n      numberStr: '!!str 123'\n      number: '123'\n      booleanStr: '!!str true'\n      boolean: 'true'\n",
			files:       map[string]string{"apps/app/terraform.yaml": "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata:\n  name: app\n  namespace: flux-system\n  labels:\n    id: ${numberStr}\n    enabled: ${booleanStr}\n  annotations:\n    id: ${q}${number}${q}\n    enabled: ${q}${boolean}${q}\n    text: |\n      This variable is escaped $${var}\n      \\?\nspec:\n  interval: 10m\n  path: ./stacks\n  sourceRef: {kind: GitRepository, name: flux-system}\n"},
			labels:      map[string]string{"id": "123", "enabled": "true"},
			annotations: map[string]string{"id": "123", "enabled": "true", "text": "This variable is escaped ${var}\n\\?\n"},
		},
		{
			name:    "PruneEmpty/reconciles empty kustomization",
			files:   map[string]string{"apps/app/kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n"},
			noStack: true,
		},
		{
			name:    "Validation/fails to build an object without apiVersion",
			files:   map[string]string{"apps/app/cm.yaml": "piVersion: v1\nkind: ConfigMap\nmetadata:\n  name: typo\n"},
			problem: "apps/app/cm.yaml: Kustomization/app: the object ConfigMap/typo has no apiVersion, so Flux fails the whole build (failed to decode Kubernetes apiVersion, kind and name) (fix: the key piVersion looks like a misspelt apiVersion: rename it in apps/app/cm.yaml",
		},
	}
	for _, tt := range tests {
		for _, plain := range []bool{true, false} {
			t.Run(tt.name, func(t *testing.T) {
				files := map[string]string{
					"clusters/dev/app.yaml":   fuzzKustomization("app", "./apps/app") + tt.spec,
					"apps/app/terraform.yaml": tfObject,
				}
				for name, body := range tt.files {
					files[name] = body
				}
				dir := filepath.Join(writeDevRepo(t, files), "clusters", "dev")
				plainBuilds = plain
				defer func() { plainBuilds = true }()
				l, err := read(keepRendered(WithOptions(context.Background(), tt.opts)), dir)
				if err != nil {
					t.Fatalf("read(%q) = %v", dir, err)
				}
				l.env.Warnings = nil
				all := environment.AllProblems(l.env, l.sortedProblems())
				if tt.problem != "" {
					if !strings.Contains(all.Error(), tt.problem) {
						t.Errorf("read(%q) problems = %v, want %q", dir, all, tt.problem)
					}
					return
				}
				if tt.noStack {
					if len(all) > 0 || len(l.env.Stacks) != 0 {
						t.Errorf("read(%q) = %d stacks, problems %v; want none", dir, len(l.env.Stacks), all)
					}
					return
				}
				want := tt.stack
				if want == "" {
					want = "app"
				}
				if len(all) > 0 || len(l.env.Stacks) != 1 || l.env.Stacks[0].Name != want {
					t.Fatalf("read(%q) = %d stacks, problems %v; want the stack %s", dir, len(l.env.Stacks), all, want)
				}
				var md map[string]any
				for _, o := range l.rendered["app"] {
					if o.Object["kind"] == kindTerraform {
						md, _ = o.Object["metadata"].(map[string]any)
					}
				}
				if diff := cmp.Diff(tt.labels, stringMap(md["labels"])); diff != "" {
					t.Errorf("read(%q) labels of Terraform/app (-want +got):\n%s", dir, diff)
				}
				if diff := cmp.Diff(tt.annotations, stringMap(md["annotations"])); diff != "" {
					t.Errorf("read(%q) annotations of Terraform/app (-want +got):\n%s", dir, diff)
				}
				if want := "services"; tt.annotations["strata.dev/layer"] != "" && l.env.Stacks[0].Layer.String() != want {
					t.Errorf("read(%q) layer of app = %s, want %s from commonMetadata", dir, l.env.Stacks[0].Layer, want)
				}
			})
		}
	}
}

// stringMap is a map of strings of a decoded object's map.
func stringMap(v any) map[string]string {
	m, _ := v.(map[string]any)
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, x := range m {
		out[k], _ = x.(string)
	}
	return out
}
