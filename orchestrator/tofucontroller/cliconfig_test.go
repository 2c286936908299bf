package tofucontroller

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/environment"
)

// TestCLIConfig: spec.cliConfigSecretRef reads the one .tfrc key of its
// Secret, as the Tofu Controller's runner reads it; what it cannot read
// is a problem, a Secret no one holds is waited for, and another
// namespace's is AccessDenied in a cluster without cross-namespace
// references.
func TestCLIConfig(t *testing.T) {
	const tfrc = "credentials \"app.terraform.io\" {\n  token = \"SENTINEL\"\n}\n"
	secret := func(name string, data map[string]string) *Object {
		return &Object{Kind: KindSecret, Name: name, File: "e/" + name + ".yaml", Data: data}
	}
	tests := []struct {
		name         string
		spec         string
		secrets      map[string]*Object
		cluster, xns bool
		want         *environment.CLIConfig
		problems     []string
		accessDenied bool
	}{
		{
			name:    "the Secret's one .tfrc key",
			spec:    "  cliConfigSecretRef: {name: tfrc}",
			secrets: map[string]*Object{"tfrc": secret("tfrc", map[string]string{"terraform.tfrc": tfrc})},
			want:    &environment.CLIConfig{Source: "Secret flux-system/tfrc key terraform.tfrc", Text: tfrc},
		},
		{
			name:    "its own namespace, named",
			spec:    "  cliConfigSecretRef: {name: tfrc, namespace: flux-system}",
			secrets: map[string]*Object{"tfrc": secret("tfrc", map[string]string{"terraform.tfrc": tfrc})},
			want:    &environment.CLIConfig{Source: "Secret flux-system/tfrc key terraform.tfrc", Text: tfrc},
		},
		{
			name:    "another namespace's, in a repository",
			spec:    "  cliConfigSecretRef: {name: tfrc, namespace: other}",
			secrets: map[string]*Object{"other/tfrc": secret("tfrc", map[string]string{"a.tfrc": tfrc})},
			want:    &environment.CLIConfig{Source: "Secret other/tfrc key a.tfrc", Text: tfrc},
		},
		{
			name:    "another namespace's, in a cluster that allows it",
			spec:    "  cliConfigSecretRef: {name: tfrc, namespace: other}",
			secrets: map[string]*Object{"other/tfrc": secret("tfrc", map[string]string{"a.tfrc": tfrc})},
			cluster: true, xns: true,
			want: &environment.CLIConfig{Source: "Secret other/tfrc key a.tfrc", Text: tfrc},
		},
		{
			name:         "another namespace's, in a cluster that does not",
			spec:         "  cliConfigSecretRef: {name: gr-source, namespace: other-ns}",
			cluster:      true,
			problems:     []string{"cannot access secret other-ns/gr-source, cross-namespace references have been disabled"},
			accessDenied: true,
		},
		{
			name:     "a Secret no one holds is waited for",
			spec:     "  cliConfigSecretRef: {name: gone}",
			problems: []string{"waiting for input Secret/flux-system/gone (spec.cliConfigSecretRef): it is not in the repository; give it with --inputs or --kubeconfig"},
		},
		{
			name:     "two keys",
			spec:     "  cliConfigSecretRef: {name: tfrc}",
			secrets:  map[string]*Object{"tfrc": secret("tfrc", map[string]string{"a.tfrc": tfrc, "b.tfrc": tfrc})},
			problems: []string{"spec.cliConfigSecretRef names Secret flux-system/tfrc, which has keys a.tfrc, b.tfrc: the Tofu Controller reads a CLI configuration Secret of exactly one key, whose name ends in .tfrc"},
		},
		{
			name:     "a key that is not .tfrc",
			spec:     "  cliConfigSecretRef: {name: tfrc}",
			secrets:  map[string]*Object{"tfrc": secret("tfrc", map[string]string{"config": tfrc})},
			problems: []string{"spec.cliConfigSecretRef names Secret flux-system/tfrc, which has keys config: the Tofu Controller reads a CLI configuration Secret of exactly one key, whose name ends in .tfrc"},
		},
		{
			name:     "no data",
			spec:     "  cliConfigSecretRef: {name: tfrc}",
			secrets:  map[string]*Object{"tfrc": secret("tfrc", nil)},
			problems: []string{"spec.cliConfigSecretRef names Secret flux-system/tfrc, which has no data: it must hold one key, whose name ends in .tfrc, with the tofu CLI configuration"},
		},
		{
			name:     "not a CLI configuration",
			spec:     "  cliConfigSecretRef: {name: tfrc}",
			secrets:  map[string]*Object{"tfrc": secret("tfrc", map[string]string{"terraform.tfrc": "credentials \"x\" {"})},
			problems: []string{"spec.cliConfigSecretRef: key terraform.tfrc of Secret flux-system/tfrc is not a tofu CLI configuration: At 1:19: object expected closing RBRACE got: EOF"},
		},
		{
			name:     "no name",
			spec:     "  cliConfigSecretRef: {namespace: x}",
			problems: []string{"spec.cliConfigSecretRef has no name"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, r := testBuilder(t, tt.spec)
			r.secrets, r.cluster, r.crossNamespace = tt.secrets, tt.cluster, tt.xns
			got := b.cliConfig()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("cliConfig(%s) diff (-want +got):\n%s", tt.spec, diff)
			}
			if diff := cmp.Diff(tt.problems, r.messages()); diff != "" {
				t.Errorf("cliConfig(%s) problems diff (-want +got):\n%s", tt.spec, diff)
			}
			if denied := len(r.problems) == 1 && r.problems[0].Code == "AccessDenied"; denied != tt.accessDenied {
				t.Errorf("cliConfig(%s) AccessDenied = %v, want %v", tt.spec, denied, tt.accessDenied)
			}
			for _, p := range r.problems {
				if containsSentinel(p.Message + p.Fix) {
					t.Errorf("cliConfig(%s) problem %q tells the token", tt.spec, p.Message)
				}
			}
			if got != nil && containsSentinel(fmtAll(*got)+fmtAll(got)) {
				t.Errorf("cliConfig(%s) formats with its text: %s", tt.spec, fmtAll(got))
			}
		})
	}
}
