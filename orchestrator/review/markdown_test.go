package review

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/policy"
)

func TestMarkdown(t *testing.T) {
	held := report.StackReport{
		Stack: "network", Layer: "network", Version: "0.2.0", Result: history.ResultHeld, Cause: "upgrade",
		Why: "upgrading the infrastructure from version 0.1.0 to 0.2.0", PlanID: "plan-0123456789ab",
		Summary: history.Summary{Add: 1, Destroy: 1}, Changes: []string{"create terraform_data.b", "delete terraform_data.a"},
		Policy: &report.PolicyReport{Denies: []policy.Finding{{Rule: "deny_delete", Address: "terraform_data.a", Message: "destroys a|b"}}},
	}
	cluster := report.Upstream{Stack: "cluster", Producer: "network", Contract: "network", Keys: []string{"public.subnet_ids"}}
	api := report.Upstream{Stack: "api", Producer: "cluster", Contract: "cluster", Keys: []string{"private.ca_data", "public.name", "*.*"}}
	broken := report.StackReport{
		Stack: "network", Layer: "network", Version: "0.1.0", Result: history.ResultHeld, Cause: "contract-break",
		PlanID: "plan-0123456789ab", Changes: []string{"update output.subnet_ids"},
		Policy: &report.PolicyReport{Allowed: false},
		ContractChange: &policy.Contract{Name: "network",
			Removed:   []policy.ContractKey{{Section: "public", Name: "subnet_ids", Type: "list"}},
			Added:     []policy.ContractKey{{Section: "public", Name: "zone", Type: "string"}},
			Consumers: []policy.ContractConsumer{{Stack: "cluster", Section: "public", Key: "subnet_ids", Why: "removed", File: "main.tf", Line: 14}},
		},
		Downstream: []report.Upstream{cluster, api},
	}
	tests := []struct {
		name   string
		stacks []report.StackReport
		want   []string
	}{
		{
			name: "contract break: consumers, file:line, and who re-plans",
			stacks: []report.StackReport{broken,
				{Stack: "cluster", Layer: "cluster", Version: "0.1.0", Result: history.ResultUnchanged, Upstream: []report.Upstream{cluster}},
				{Stack: "api", Layer: "services", Version: "0.1.0", Result: history.ResultUnchanged, Upstream: []report.Upstream{api}},
			},
			want: []string{
				"| network | network | 0.1.0 | held | contract-break | - | held (contract-break) |\n",
				"| cluster | cluster | 0.1.0 | unchanged, will re-plan | - | - | - |\n",
				"**Policy:** allowed; held for a person's approval because it breaks a consumer of its contract.\n\n",
				"**Contract network:** `public.subnet_ids` removed; `public.zone` added;\n\n",
				"Held with cause `contract-break`: it breaks\n- cluster, which reads `public.subnet_ids` at `main.tf:14` (removed)\n",
				"**Downstream:** once this plan is applied, these stacks re-plan with cause `upstream`:\n" +
					"- cluster: will re-plan (upstream: subnet_ids) after network applies\n" +
					"- api: will re-plan (upstream: private.ca_data, name, every key of cluster) after cluster applies\n",
				"### cluster: unchanged\n\n**Will re-plan after network applies** (upstream: subnet_ids): this plan ran against the contracts published now.",
			},
		},
		{
			name:   "unchanged stack: table only",
			stacks: []report.StackReport{{Stack: "account", Layer: "account", Version: "0.1.0", Result: history.ResultUnchanged}},
			want: []string{
				"## strata apply: demo/dev (non-prod)\n\n",
				"| stack | layer | version | result | cause | changes | policy |\n|---|---|---|---|---|---|---|\n",
				"| account | account | 0.1.0 | unchanged | - | - | - |\n",
			},
		},
		{
			name:   "held stack: cause, changes and denials",
			stacks: []report.StackReport{held},
			want: []string{
				"| network | network | 0.2.0 | held | upgrade | +1 ~0 -1 | held (1 denied) |\n",
				"\n### network: held (upgrade)\n\nUpgrading the infrastructure from version 0.1.0 to 0.2.0.\n\n",
				"Plan `plan-0123456789ab`: 1 to add, 0 to change, 1 to destroy.\n\n",
				"- create `terraform_data.b`\n- delete `terraform_data.a`\n\n",
				"**Policy:** held for a person's approval.\n\n",
				"Denied:\n- `deny_delete` on `terraform_data.a`: destroys a|b\n",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			rep := &report.Report{Client: "demo", Environment: "dev", Class: "non-prod", Operation: "apply", Stacks: tt.stacks}
			if err := Markdown(&b, rep); err != nil {
				t.Fatalf("Markdown(%q) = %v", tt.name, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("Markdown(%q) lacks %q:\n%s", tt.name, w, b.String())
				}
			}
			if diff := cmp.Diff(strings.Count(b.String(), "\n### "), countProblems(tt.stacks)); diff != "" {
				t.Errorf("Markdown(%q) sections diff (-got +want):\n%s", tt.name, diff)
			}
		})
	}
}

// countProblems is how many stacks get a section of their own.
func countProblems(stacks []report.StackReport) int {
	n := 0
	for _, s := range stacks {
		if len(s.Changes) > 0 || s.Policy != nil || !s.Result.Converged() || len(s.Upstream) > 0 || len(s.Downstream) > 0 {
			n++
		}
	}
	return n
}
