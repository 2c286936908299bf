package tofucontroller

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/strata-iac/strata/internal/cliconfig"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// defaultCloudHost is the host of a cloud block that names none.
const defaultCloudHost = "app.terraform.io"

// cloud resolves spec.cloud as the Tofu Controller does: the stack's
// state is the HCP Terraform (or Terraform Enterprise) workspace it names,
// through a cloud block strata writes in place of a backend. The block is
// the Tofu Controller's, less its token: spec.cloud.token goes into the
// stack's CLI configuration as the host's credentials (where one of
// spec.cliConfigSecretRef for that host wins), so that it is in no plan
// file. It returns the block, "" without spec.cloud, and the stack's CLI
// configuration.
func (b *builder) cloud(cli *environment.CLIConfig) (string, *environment.CLIConfig) {
	c := b.tf.Spec.Cloud
	if c == nil {
		return "", cli
	}
	if c.Organization == "" || c.Workspaces == nil || c.Workspaces.Name == "" && len(c.Workspaces.Tags) == 0 {
		b.problem("spec.cloud needs an organization and a workspace (workspaces.name or workspaces.tags)",
			fmt.Sprintf("set spec.cloud.organization and spec.cloud.workspaces.name in %s", b.tf.File))
		return "", cli
	}
	var sb strings.Builder
	sb.WriteString("cloud {\n")
	fmt.Fprintf(&sb, "  organization = %s\n", strconv.Quote(c.Organization))
	sb.WriteString("  workspaces {\n")
	if c.Workspaces.Name != "" {
		fmt.Fprintf(&sb, "    name = %s\n", strconv.Quote(c.Workspaces.Name))
	}
	if len(c.Workspaces.Tags) > 0 {
		tags := make([]string, len(c.Workspaces.Tags))
		for i, t := range c.Workspaces.Tags {
			tags[i] = strconv.Quote(t)
		}
		fmt.Fprintf(&sb, "    tags = [%s]\n", strings.Join(tags, ", "))
	}
	sb.WriteString("  }\n")
	host := defaultCloudHost
	if c.Hostname != "" {
		host = c.Hostname
		fmt.Fprintf(&sb, "  hostname = %s\n", strconv.Quote(c.Hostname))
	}
	sb.WriteString("}")
	if c.Token == "" {
		return sb.String(), cli
	}
	creds := fmt.Sprintf("credentials %s {\n  token = %s\n}\n", strconv.Quote(host), strconv.Quote(c.Token))
	if cli == nil {
		return sb.String(), &environment.CLIConfig{Source: "spec.cloud.token", Text: creds}
	}
	merged, _, err := cliconfig.Merge(cli.Text, creds)
	if err != nil {
		return sb.String(), cli // cliConfig checked it already
	}
	return sb.String(), &environment.CLIConfig{Source: cli.Source + " and spec.cloud.token", Text: merged}
}
