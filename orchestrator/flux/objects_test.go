package flux

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/tofucontroller"
)

func TestDecodeObject(t *testing.T) {
	const file = "f.yaml"
	type want struct {
		kind    string // which field of decoded is set; "" for none
		name    string
		problem *diag.Problem
	}
	tests := []struct {
		name string
		doc  string
		want want
	}{
		{
			name: "configmap",
			doc:  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: init}\ndata: {a: b}\n",
			want: want{kind: "ConfigMap", name: "init"},
		},
		{
			name: "flux kustomization",
			doc:  "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: k}\n",
			want: want{kind: "Kustomization", name: "k"},
		},
		{
			name: "a kustomize file among the objects fails the apply, as no cluster serves it",
			doc:  "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [a.yaml]\n",
			want: want{problem: &diag.Problem{
				File:    file,
				Message: "a Kustomization of kustomize.config.k8s.io/v1beta1 is among the objects Flux applies, and no cluster serves that kind: Flux's apply of the whole Kustomization fails, so none of its objects are applied",
				Fix:     "name the file kustomization.yaml (in a directory of its own), or move f.yaml out of the directory Flux builds",
			}},
		},
		{
			name: "terraform",
			doc:  "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata: {name: t}\n",
			want: want{kind: "Terraform", name: "t"},
		},
		{
			name: "oci repository v1beta2",
			doc:  "apiVersion: source.toolkit.fluxcd.io/v1beta2\nkind: OCIRepository\nmetadata: {name: o}\n",
			want: want{kind: "OCIRepository", name: "o"},
		},
		{
			name: "git repository",
			doc:  "apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata: {name: g}\n",
			want: want{kind: "GitRepository", name: "g"},
		},
		{
			name: "unknown kind is ignored",
			doc:  "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: [1, 2]\n",
			want: want{kind: "skipped Deployment"},
		},
		{
			name: "configmap of another group is ignored",
			doc:  "apiVersion: example.com/v1\nkind: ConfigMap\nmetadata: {name: c}\n",
			want: want{kind: "skipped ConfigMap"},
		},
		{
			name: "secret",
			doc:  "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {a: b}\n",
			want: want{kind: "Secret", name: "s"},
		},
		{
			name: "bucket",
			doc:  "apiVersion: source.toolkit.fluxcd.io/v1\nkind: Bucket\nmetadata: {name: b}\n",
			want: want{kind: "Bucket", name: "b"},
		},
		{
			name: "a kind strata does not read, its metadata of another shape",
			doc:  "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: n\n  labels: {goldilocks.fairwinds.com/enabled: true}\n",
			want: want{kind: "skipped Namespace"},
		},
		{
			name: "a kind strata reads, its metadata of another shape",
			doc:  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {enabled: true}\n",
			want: want{problem: &diag.Problem{
				File:    file,
				Message: "invalid object: metadata.labels is a bool, want a string",
				Fix:     "correct the object in f.yaml to the documented shape",
			}},
		},
		{
			name: "helm release is skipped",
			doc:  "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: h}\n",
			want: want{kind: "skipped HelmRelease"},
		},
		{
			name: "kind typo in a known group",
			doc:  "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terrafrom\nmetadata: {name: t}\n",
			want: want{problem: &diag.Problem{
				File:    file,
				Object:  "Terrafrom/t",
				Message: `kind "Terrafrom" is not a kind of the API group infra.contrib.fluxcd.io`,
				Fix:     "write kind: Terraform in f.yaml",
			}},
		},
		{
			name: "misspelt group",
			doc:  "apiVersion: infra.contrib.flux.io/v1alpha2\nkind: Terraform\nmetadata: {name: t}\n",
			want: want{problem: &diag.Problem{
				File:    file,
				Object:  "Terraform/t",
				Message: `apiVersion "infra.contrib.flux.io/v1alpha2": the API group infra.contrib.flux.io looks like a misspelling of infra.contrib.fluxcd.io, so the object would not be read`,
				Fix:     "write apiVersion: infra.contrib.fluxcd.io/v1alpha2 in f.yaml",
			}},
		},
		{
			name: "version strata does not read",
			doc:  "apiVersion: infra.contrib.fluxcd.io/v1beta1\nkind: Terraform\nmetadata: {name: t}\n",
			want: want{problem: &diag.Problem{
				File:    file,
				Object:  "Terraform/t",
				Message: `apiVersion "infra.contrib.fluxcd.io/v1beta1": strata reads Terraform only as infra.contrib.fluxcd.io/v1alpha2 or infra.contrib.fluxcd.io/v1alpha1`,
				Fix:     "write apiVersion: infra.contrib.fluxcd.io/v1alpha2 in f.yaml",
			}},
		},
		{
			name: "v1alpha1, as the Tofu Controller serves it",
			doc:  "apiVersion: infra.contrib.fluxcd.io/v1alpha1\nkind: Terraform\nmetadata: {name: t}\n",
			want: want{kind: "Terraform", name: "t"},
		},
		{
			name: "core kind typo",
			doc:  "apiVersion: v1\nkind: ConfigMpa\nmetadata: {name: c}\n",
			want: want{problem: &diag.Problem{
				File:    file,
				Object:  "ConfigMpa/c",
				Message: `kind "ConfigMpa" looks like a misspelling of ConfigMap`,
				Fix:     "write kind: ConfigMap in f.yaml",
			}},
		},
		{
			name: "field of the wrong type",
			doc:  "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata: {name: t}\nspec:\n  dependsOn: net\n",
			want: want{problem: &diag.Problem{
				File:    file,
				Object:  "Terraform/t",
				Message: "invalid object: spec.dependsOn is a string, want a list",
				Fix:     "correct Terraform/t in f.yaml to the documented shape",
			}},
		},
		{
			name: "no name",
			doc:  "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nspec: {}\n",
			want: want{problem: &diag.Problem{
				File:    file,
				Message: "a Terraform has no metadata.name",
				Fix:     "give the Terraform in f.yaml a metadata.name",
			}},
		},
		{
			name: "configmap value not a string",
			doc:  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: service-versions}\ndata:\n  version_a: 1.0\n",
			want: want{problem: &diag.Problem{
				File:    file,
				Object:  "ConfigMap/service-versions",
				Message: "data.version_a is a number; ConfigMap data values must be strings",
				Fix:     "quote the value of version_a in f.yaml",
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var obj map[string]any
			if err := yaml.Unmarshal([]byte(tt.doc), &obj); err != nil {
				t.Fatal(err)
			}
			d, p := decodeObject(file, obj, nil)
			var got want
			got.problem = p
			switch {
			case d.ConfigMap != nil:
				got.kind, got.name = "ConfigMap", d.ConfigMap.Name()
			case d.Kustomization != nil:
				got.kind, got.name = "Kustomization", d.Kustomization.Name()
			case d.Terraform != nil:
				got.kind, got.name = "Terraform", d.Terraform.Name()
			case d.OCIRepository != nil:
				got.kind, got.name = "OCIRepository", d.OCIRepository.Name()
			case d.GitRepository != nil:
				got.kind, got.name = "GitRepository", d.GitRepository.Name()
			case d.Secret != nil:
				got.kind, got.name = "Secret", d.Secret.Name()
			case d.Bucket != nil:
				got.kind, got.name = "Bucket", d.Bucket.Name()
			case d.Skipped != "":
				got.kind = "skipped " + d.Skipped
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("decodeObject(%q) mismatch (-want +got):\n%s", tt.doc, diff)
			}
			if p == nil {
				apiVersion, _ := obj["apiVersion"].(string)
				kind, _ := obj["kind"].(string)
				if got, want := reads(apiVersion, kind), d.Skipped == ""; got != want {
					t.Errorf("reads(%q, %q) = %v, want %v as decodeObject decodes it", apiVersion, kind, got, want)
				}
			}
		})
	}
}

func TestDecodeTerraform(t *testing.T) {
	text := `apiVersion: infra.contrib.fluxcd.io/v1alpha2
kind: Terraform
metadata:
  name: api
  annotations:
    strata.dev/layer: services
spec:
  path: ./terraform
  approvePlan: auto
  sourceRef: {kind: OCIRepository, name: api-iac, namespace: flux-system}
  vars:
    - {name: count, value: 3}
  varsFrom:
    - {kind: ConfigMap, name: cfg, varsKeys: [a], optional: true}
  dependsOn: [{name: db}]
  backendConfig: {customConfiguration: "backend \"local\" {}"}
  writeOutputsToSecret: {name: api, outputs: [url]}
  readInputsFromSecrets: [{name: cluster, as: k8s}]
`
	var obj map[string]any
	if err := yaml.Unmarshal([]byte(text), &obj); err != nil {
		t.Fatal(err)
	}
	d, p := decodeObject("t.yaml", obj, nil)
	if p != nil || d.Terraform == nil {
		t.Fatalf("decodeObject() = %v, %v, want a Terraform", d, p)
	}
	s := d.Terraform.Spec
	got := []any{
		s.Path, s.ApprovePlan, *s.SourceRef, string(s.Vars[0].Value), s.VarsFrom, s.DependsOn,
		s.BackendConfig.CustomConfiguration, *s.WriteOutputsToSecret, s.ReadInputsFromSecrets[0].As,
		d.Terraform.Metadata.Annotations[environment.AnnotationLayer],
	}
	want := []any{
		"./terraform", "auto", tofucontroller.SourceRef{Kind: "OCIRepository", Name: "api-iac", Namespace: "flux-system"}, "3",
		[]tofucontroller.VarsRef{{Kind: "ConfigMap", Name: "cfg", VarsKeys: []string{"a"}, Optional: true}}, []tofucontroller.NamedRef{{Name: "db"}},
		`backend "local" {}`, tofucontroller.WriteOutputsToSecret{Name: "api", Outputs: []string{"url"}}, "k8s",
		"services",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decodeObject(Terraform) mismatch (-want +got):\n%s", diff)
	}
}

// TestMetaFromMap: where metaFromMap reads an object's meta, it reads
// what json.Unmarshal of the object's JSON reads; it leaves to that
// decode anything it would read otherwise.
func TestMetaFromMap(t *testing.T) {
	tests := []struct {
		name, doc string
		ok        bool
	}{
		{"full", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"b","labels":{"x":"y"},"annotations":{"p":"q"}},"data":{"k":"v"}}`, true},
		{"no metadata", `{"apiVersion":"v1","kind":"ConfigMap"}`, true},
		{"null metadata", `{"apiVersion":"v1","kind":"ConfigMap","metadata":null}`, true},
		{"null kind", `{"apiVersion":"v1","kind":null,"metadata":{"name":"a"}}`, true},
		{"empty labels", `{"kind":"ConfigMap","metadata":{"name":"a","labels":{}}}`, true},
		{"a number kind", `{"apiVersion":"v1","kind":1}`, false},
		{"a number label", `{"kind":"ConfigMap","metadata":{"name":"a","labels":{"x":1}}}`, false},
		{"a null label", `{"kind":"ConfigMap","metadata":{"name":"a","labels":{"x":null}}}`, false},
		{"a list of labels", `{"kind":"ConfigMap","metadata":{"name":"a","labels":["x"]}}`, false},
		{"metadata a string", `{"kind":"ConfigMap","metadata":"a"}`, false},
		{"Kind in another case", `{"apiVersion":"v1","Kind":"Secret","kind":"ConfigMap"}`, false},
		{"NAME in another case", `{"kind":"ConfigMap","metadata":{"NAME":"b","name":"a"}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var obj map[string]any
			if err := json.Unmarshal([]byte(tt.doc), &obj); err != nil {
				t.Fatal(err)
			}
			got, ok := metaFromMap(obj)
			if ok != tt.ok {
				t.Errorf("metaFromMap(%s) ok = %v, want %v", tt.doc, ok, tt.ok)
			}
			if !ok {
				return
			}
			var want meta
			if err := json.Unmarshal([]byte(tt.doc), &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("metaFromMap(%s) mismatch with json.Unmarshal (-want +got):\n%s", tt.doc, diff)
			}
		})
	}
}
