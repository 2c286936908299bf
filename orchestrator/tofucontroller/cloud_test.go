package tofucontroller

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/environment"
)

// TestCloud: spec.cloud is the Tofu Controller's cloud block, its token
// moved to the stack's CLI configuration, where spec.cliConfigSecretRef's
// credentials for the host win.
func TestCloud(t *testing.T) {
	tests := []struct {
		name, spec string
		cli        *environment.CLIConfig
		want       string
		wantCLI    *environment.CLIConfig
		problems   []string
	}{
		{
			name: "a named workspace, its token",
			spec: "  cloud: {organization: acme, hostname: tfe.example.com, token: SENTINEL, workspaces: {name: dev}}",
			want: "cloud {\n  organization = \"acme\"\n  workspaces {\n    name = \"dev\"\n  }\n  hostname = \"tfe.example.com\"\n}",
			wantCLI: &environment.CLIConfig{Source: "spec.cloud.token",
				Text: "credentials \"tfe.example.com\" {\n  token = \"SENTINEL\"\n}\n"},
		},
		{
			name: "tags, the default host, no token",
			spec: "  cloud: {organization: acme, workspaces: {tags: [app, dev]}}",
			want: "cloud {\n  organization = \"acme\"\n  workspaces {\n    tags = [\"app\", \"dev\"]\n  }\n}",
		},
		{
			name: "the CLI configuration's credentials win",
			spec: "  cloud: {organization: acme, token: SENTINEL, workspaces: {name: dev}}",
			cli:  &environment.CLIConfig{Source: "Secret ns/tfrc key a.tfrc", Text: "credentials \"app.terraform.io\" {\n  token = \"mine\"\n}\n"},
			want: "cloud {\n  organization = \"acme\"\n  workspaces {\n    name = \"dev\"\n  }\n}",
			wantCLI: &environment.CLIConfig{Source: "Secret ns/tfrc key a.tfrc and spec.cloud.token",
				Text: "credentials \"app.terraform.io\" {\n  token = \"mine\"\n}\n"},
		},
		{
			name:     "no workspace",
			spec:     "  cloud: {organization: acme}",
			problems: []string{"spec.cloud needs an organization and a workspace (workspaces.name or workspaces.tags)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, r := testBuilder(t, tt.spec)
			block, cli := b.cloud(tt.cli)
			if diff := cmp.Diff(tt.want, block); diff != "" {
				t.Errorf("cloud(%s) block diff (-want +got):\n%s", tt.name, diff)
			}
			if diff := cmp.Diff(tt.wantCLI, cli); diff != "" {
				t.Errorf("cloud(%s) CLI configuration diff (-want +got):\n%s", tt.name, diff)
			}
			if diff := cmp.Diff(tt.problems, r.messages()); diff != "" {
				t.Errorf("cloud(%s) problems diff (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}
