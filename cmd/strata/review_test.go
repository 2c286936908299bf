package main

import (
	"path/filepath"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// The review of a cidr change in network lists the stacks that will
// re-plan because of it, down the graph, and never a false no-change.
func TestReviewDownstream(t *testing.T) {
	root := demoRepo(t)
	env := filepath.Join(root, "environments", "demo", "dev")
	state := t.TempDir()
	tofuBin := tofutest.Binary(t)
	if out, errOut, code := strata(t, "apply", env, "--tofu", tofuBin, "--state-dir", state); code != 0 {
		t.Fatalf("strata apply exit code = %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	testkit.EditFile(t, root, "environments/demo/dev/platform/network.yaml", `cidr: "10.10.0.0/16"`, `cidr: "10.20.0.0/16"`)

	tests := []cliCase{
		{
			name: "markdown",
			args: []string{"plan", env, "--tofu", tofuBin, "--state-dir", state, "-o", "markdown"},
			wantOut: []string{
				"| network | network | 0.1.0 | planned | variables |",
				"| cluster | cluster | 0.1.0 | no-changes, will re-plan |",
				"| api | services | 0.1.0 | no-changes, will re-plan |",
				"Variables changed: cidr.",
				"**Downstream:** once this plan is applied, these stacks re-plan with cause `upstream`:\n" +
					"- cluster: will re-plan (upstream: subnet_ids, vpc_id) after network applies\n" +
					"- api: will re-plan (upstream: private.ca_data, endpoint, name) after cluster applies\n" +
					"- worker: will re-plan (upstream: name) after cluster applies\n",
				"### cluster: no-changes\n\n**Will re-plan after network applies** (upstream: subnet_ids, vpc_id): this plan ran against the contracts published now.",
			},
		},
		{
			name: "json",
			args: []string{"plan", env, "--tofu", tofuBin, "--state-dir", state, "-o", "json"},
			wantOut: []string{
				`"downstream": [`,
				`"stack": "cluster",
          "producer": "network",
          "contract": "network",
          "keys": [
            "public.subnet_ids",
            "public.vpc_id"
          ],
          "known": false`,
			},
		},
	}
	runCases(t, tests)
}

func TestContractsDiff(t *testing.T) {
	root := demoRepo(t)
	env := filepath.Join(root, "environments", "demo", "dev")
	state := t.TempDir()
	tofuBin := tofutest.Binary(t)
	if out, errOut, code := strata(t, "apply", env, "--tofu", tofuBin, "--state-dir", state); code != 0 {
		t.Fatalf("strata apply exit code = %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	diff := func(args ...string) []string {
		return append([]string{"contracts", "diff", env}, append(args, "--tofu", tofuBin, "--state-dir", state)...)
	}
	runCases(t, []cliCase{
		{name: "unchanged", args: diff("network"), wantOut: []string{"contract network of stack network: the plan (no-changes) publishes it unchanged"}},
		{name: "no contract", args: diff("nope"), wantCode: 2, wantErr: []string{`demo/dev has no stack "nope"`}},
	})

	// subnet_ids removed, and a key added.
	testkit.EditFile(t, root, "flux-apps/platform-stacks/network/terraform/outputs.tf", `output "subnet_ids" {
  description = "The IDs of the VPC's subnets."
  value       = terraform_data.network.output.subnet_ids
}`, `output "zone" {
  value = "a"
}`)
	out, _ := checkRun(t, diff("network"), 0, []string{
		"contract network of stack network: published now, against plan plan-",
		"breaks (strata apply holds this plan with cause contract-break):\n" +
			"  cluster reads public.subnet_ids at flux-apps/platform-stacks/cluster/terraform/main.tf:14: removed\n",
		"re-plans once applied:\n  cluster after network applies (upstream: public.subnet_ids)\n",
	}, nil)
	for _, row := range [][]string{
		{"removed", "public.subnet_ids", "list"},
		{"added", "public.zone", "string"},
		{"value", "public.subnet_ids", "-"},
		{"value", "public.zone", "-"},
	} {
		if !hasRow(out, row) {
			t.Errorf("strata contracts diff lacks the row %q:\n%s", row, out)
		}
	}
	checkRun(t, append(diff("network"), "-o", "json"), 0, []string{`"removed": [`, `"name": "subnet_ids"`, `"why": "removed"`, `"line": 14`}, nil)
}
