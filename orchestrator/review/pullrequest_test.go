package review

import (
	"fmt"
	"strings"
	"testing"

	"github.com/strata-iac/strata/orchestrator/change"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/policy"
)

func TestPullRequest(t *testing.T) {
	d := &change.Report{Base: "origin/main", Commit: "0123456789abcdef0123"}
	network := change.Stack{Stack: "network", Layer: "network", Cause: change.CauseVersion, From: "0.1.0", To: "0.2.0",
		Why: "upgrading the infrastructure from version 0.1.0 to 0.2.0", Produces: "network", Consumers: []string{"app"}}
	app := change.Stack{Stack: "app", Layer: "services", Cause: change.CauseContract,
		Why: "it reads contract network, which network produces, and that stack changes", Reads: []change.Read{{Contract: "network", Producer: "network"}}}
	planned := &report.Report{Stacks: []report.StackReport{
		{Stack: "network", Result: history.ResultHeld, Cause: "upgrade", PlanID: "plan-1", Summary: history.Summary{Add: 1, Destroy: 1},
			Changes: []string{"create terraform_data.b", "delete terraform_data.a"},
			Policy:  &report.PolicyReport{Denies: []policy.Finding{{Rule: "deny_delete", Address: "terraform_data.a", Message: "destroys"}}}},
		{Stack: "app", Result: history.ResultPlanned, Cause: "install", Summary: history.Summary{Add: 2}, Changes: []string{"create terraform_data.x"},
			Policy: &report.PolicyReport{Allowed: true}},
		{Stack: "dns", Result: history.ResultUnchanged, Message: report.NotSelected},
	}}
	tests := []struct {
		name string
		envs []change.EnvPlan
		want []string
		not  []string
	}{
		{
			name: "planned",
			envs: []change.EnvPlan{
				{Env: change.Env{Dir: "environments/acme/dev", Client: "acme", Name: "dev", Stacks: []change.Stack{app, network}, Unchanged: []string{"dns"}}, Report: planned},
				{Env: change.Env{Dir: "environments/acme/prod", Client: "acme", Name: "prod", Unchanged: []string{"app", "dns", "network"}}},
			},
			want: []string{
				"## strata: 2 stacks in 1 environment change against origin/main (0123456789ab)\n",
				"| acme/dev | app | contract network (from network) | planned | +2 ~0 -0 | allowed |\n",
				"| acme/dev | network | version 0.1.0 → 0.2.0 | held | +1 ~0 -1 | held (1 denied) |\n",
				"Unchanged: acme/prod (3 stacks).\n",
				"### acme/dev: network — held (version)\n",
				"<details><summary>The plan's changes</summary>\n\n- create `terraform_data.b`\n- delete `terraform_data.a`\n\n</details>\n",
				"Denied:\n- `deny_delete` on `terraform_data.a`: destroys\n",
				"**Consumers that re-plan** (they read contract network): app.\n",
			},
			not: []string{"dns |"},
		},
		{
			name: "diff only",
			envs: []change.EnvPlan{{Env: change.Env{Dir: "environments/acme/dev", Client: "acme", Name: "dev", Stacks: []change.Stack{network}}}},
			want: []string{"| acme/dev | network | version 0.1.0 → 0.2.0 | not planned | - | - |\n", "### acme/dev: network (version)\n"},
		},
		{
			name: "nothing",
			envs: []change.EnvPlan{{Env: change.Env{Dir: "environments/acme/dev", Client: "acme", Name: "dev", Unchanged: []string{"a"}}}},
			want: []string{"## strata: 0 stacks in 0 environments change against origin/main", "Unchanged: acme/dev (1 stack).\n"},
			not:  []string{"| environment |"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := PullRequest(&b, d, tt.envs); err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("PullRequest(%q) lacks %q:\n%s", tt.name, w, b.String())
				}
			}
			for _, n := range tt.not {
				if strings.Contains(b.String(), n) {
					t.Errorf("PullRequest(%q) has %q:\n%s", tt.name, n, b.String())
				}
			}
		})
	}
}

func TestCut(t *testing.T) {
	section := func(i, lines int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "### acme/dev: s%d — planned (code)\n\n<details><summary>The plan's changes</summary>\n\n", i)
		for j := range lines {
			fmt.Fprintf(&b, "- create `terraform_data.r%d`\n", j)
		}
		b.WriteString("\n</details>\n\n")
		return b.String()
	}
	many := "## strata: 40 stacks\n\n"
	for i := range 40 {
		many += section(i, 100)
	}
	huge := "## strata: 1 stack\n\n" + section(0, 5000)
	tests := []struct {
		name      string
		review    string
		wantCut   bool
		wantShown int // whole sections
	}{
		{"fits", "## strata\n\n" + section(0, 3), false, 1},
		{"many sections", many, true, 20},
		{"one huge section", huge, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cut := Cut(tt.review, CommentLimit, "review.full.md")
			if cut != tt.wantCut {
				t.Fatalf("Cut(%q) cut = %v, want %v", tt.name, cut, tt.wantCut)
			}
			if len(got) > CommentLimit {
				t.Errorf("Cut(%q) = %d bytes, want at most %d", tt.name, len(got), CommentLimit)
			}
			if !cut {
				if got != tt.review {
					t.Errorf("Cut(%q) changed a review that fits", tt.name)
				}
				return
			}
			if !strings.Contains(got, "the whole review is in `review.full.md`") {
				t.Errorf("Cut(%q) does not say where the rest is:\n%s", tt.name, got[len(got)-300:])
			}
			if strings.Count(got, "<details>") != strings.Count(got, "</details>") {
				t.Errorf("Cut(%q) leaves a <details> open", tt.name)
			}
			if tt.wantShown > 0 && strings.Count(got, "\n</details>\n\n### ") < tt.wantShown-1 {
				t.Errorf("Cut(%q) shows %d whole sections, want about %d", tt.name, strings.Count(got, "### "), tt.wantShown)
			}
			if !strings.HasPrefix(got, tt.review[:20]) {
				t.Errorf("Cut(%q) lost the summary", tt.name)
			}
		})
	}
}
