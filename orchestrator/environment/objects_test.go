package environment

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/diag"
)

func TestSplitDocuments(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []document
	}{
		{name: "empty", text: "", want: nil},
		{name: "one", text: "a: 1\n", want: []document{{Text: "a: 1\n", Line: 1}}},
		{
			name: "leading marker and comments",
			text: "# c\n---\na: 1\n---\n# only a comment\n---   \nb: 2\n...\n",
			want: []document{{Text: "a: 1\n", Line: 3}, {Text: "b: 2\n", Line: 7}},
		},
		{
			name: "marker with comment",
			text: "a: 1\n--- # next\nb: 2",
			want: []document{{Text: "a: 1\n", Line: 1}, {Text: "b: 2", Line: 3}},
		},
		{
			name: "dashes inside a value are kept",
			text: "a: |\n  ---\n  x\n",
			want: []document{{Text: "a: |\n  ---\n  x\n", Line: 1}},
		},
		{name: "windows line ends", text: "a: 1\r\n---\r\nb: 2\r\n", want: []document{{Text: "a: 1\r\n", Line: 1}, {Text: "b: 2\r\n", Line: 3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := splitDocuments(tt.text)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("splitDocuments(%q) mismatch (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func TestDecodeDocument(t *testing.T) {
	const file = "f.yaml"
	type want struct {
		kind    string // which field of decoded is set; "" for none
		name    string
		problem *diag.Problem
	}
	tests := []struct {
		name string
		doc  document
		want want
	}{
		{
			name: "configmap",
			doc:  document{Text: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: init}\ndata: {a: b}\n", Line: 1},
			want: want{kind: "ConfigMap", name: "init"},
		},
		{
			name: "flux kustomization",
			doc:  document{Text: "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: k}\n", Line: 1},
			want: want{kind: "Kustomization", name: "k"},
		},
		{
			name: "kustomize file is not a flux kustomization",
			doc:  document{Text: "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [a.yaml]\n", Line: 1},
			want: want{},
		},
		{
			name: "terraform",
			doc:  document{Text: "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata: {name: t}\n", Line: 1},
			want: want{kind: "Terraform", name: "t"},
		},
		{
			name: "oci repository v1beta2",
			doc:  document{Text: "apiVersion: source.toolkit.fluxcd.io/v1beta2\nkind: OCIRepository\nmetadata: {name: o}\n", Line: 1},
			want: want{kind: "OCIRepository", name: "o"},
		},
		{
			name: "git repository",
			doc:  document{Text: "apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata: {name: g}\n", Line: 1},
			want: want{kind: "GitRepository", name: "g"},
		},
		{
			name: "unknown kind is ignored",
			doc:  document{Text: "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: [1, 2]\n", Line: 1},
			want: want{},
		},
		{
			name: "configmap of another group is ignored",
			doc:  document{Text: "apiVersion: example.com/v1\nkind: ConfigMap\nmetadata: {name: c}\n", Line: 1},
			want: want{},
		},
		{name: "null document", doc: document{Text: "~\n", Line: 1}, want: want{}},
		{
			name: "malformed, line counted from the file",
			doc:  document{Text: "apiVersion: v1\nkind: ConfigMap\n  metadata: {}\n", Line: 10},
			want: want{problem: &diag.Problem{
				File:    file,
				Message: "malformed YAML at line 12: mapping values are not allowed in this context",
				Fix:     "fix the YAML syntax at line 12 of f.yaml",
			}},
		},
		{
			name: "not a mapping",
			doc:  document{Text: "- a\n- b\n", Line: 4},
			want: want{problem: &diag.Problem{
				File:    file,
				Message: "the document at line 4 is not a YAML mapping",
				Fix:     "make the document at line 4 of f.yaml a Kubernetes object (apiVersion, kind, metadata, …) or remove it",
			}},
		},
		{
			name: "field of the wrong type",
			doc:  document{Text: "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata: {name: t}\nspec:\n  dependsOn: net\n", Line: 3},
			want: want{problem: &diag.Problem{
				File:    file,
				Object:  "Terraform/t",
				Message: "invalid object: spec.dependsOn is a string, want a list",
				Fix:     "correct Terraform/t at line 3 of f.yaml to the documented shape",
			}},
		},
		{
			name: "no name",
			doc:  document{Text: "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nspec: {}\n", Line: 2},
			want: want{problem: &diag.Problem{
				File:    file,
				Message: "the Terraform at line 2 has no metadata.name",
				Fix:     "give the Terraform at line 2 of f.yaml a metadata.name",
			}},
		},
		{
			name: "configmap value not a string",
			doc:  document{Text: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: service-versions}\ndata:\n  version_a: 1.0\n", Line: 1},
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
			d, p := decodeDocument(file, tt.doc)
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
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("decodeDocument(%q) mismatch (-want +got):\n%s", tt.doc.Text, diff)
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
	d, p := decodeDocument("t.yaml", document{Text: text, Line: 1})
	if p != nil || d.Terraform == nil {
		t.Fatalf("decodeDocument() = %v, %v, want a Terraform", d, p)
	}
	s := d.Terraform.Spec
	got := []any{
		s.Path, s.ApprovePlan, *s.SourceRef, string(s.Vars[0].Value), s.VarsFrom, s.DependsOn,
		s.BackendConfig.CustomConfiguration, *s.WriteOutputsToSecret, s.ReadInputsFromSecrets[0].As,
		d.Terraform.Metadata.Annotations[AnnotationLayer],
	}
	want := []any{
		"./terraform", "auto", sourceRef{Kind: "OCIRepository", Name: "api-iac", Namespace: "flux-system"}, "3",
		[]valuesRef{{Kind: "ConfigMap", Name: "cfg", VarsKeys: []string{"a"}, Optional: true}}, []namedRef{{Name: "db"}},
		`backend "local" {}`, struct {
			Name    string   `json:"name"`
			Outputs []string `json:"outputs"`
		}{Name: "api", Outputs: []string{"url"}}, "k8s",
		"services",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decodeDocument(Terraform) mismatch (-want +got):\n%s", diff)
	}
}

func TestDecodeKustomizeFile(t *testing.T) {
	tests := []struct {
		name        string
		text        string
		want        []string
		wantProblem *diag.Problem
	}{
		{name: "with kind", text: "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - a.yaml\n  - b\n", want: []string{"a.yaml", "b"}},
		{name: "without kind", text: "resources: [a.yaml]\n", want: []string{"a.yaml"}},
		{name: "empty", text: "# nothing\n", want: nil},
		{
			name: "malformed",
			text: "resources:\n- a\n b: c\n",
			wantProblem: &diag.Problem{
				File:    "k/kustomization.yaml",
				Message: "malformed YAML at line 3: mapping values are not allowed in this context",
				Fix:     "fix the YAML syntax at line 3 of k/kustomization.yaml",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, p := decodeKustomizeFile("k/kustomization.yaml", tt.text)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("decodeKustomizeFile(%q) mismatch (-want +got):\n%s", tt.text, diff)
			}
			if diff := cmp.Diff(tt.wantProblem, p); diff != "" {
				t.Errorf("decodeKustomizeFile(%q) problem mismatch (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}
