package tofu_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/tofu"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// stateResources lists the addresses of the resources of a local state
// file, read from its JSON.
func stateResources(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read state %s: %v", path, err)
	}
	var st struct {
		Resources []struct{ Type, Name string }
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range st.Resources {
		out = append(out, r.Type+"."+r.Name)
	}
	slices.Sort(out)
	return out
}

// TestRunOptions: the run options reach tofu. Targets limit the plan and
// the apply to the targeted resources; parallelism and refresh are passed
// on plan and apply as the Tofu Controller passes them; a workspace other
// than default keeps its own state.
func TestRunOptions(t *testing.T) {
	tests := []struct {
		name      string
		workspace string
		plan      tofu.PlanOptions
		apply     tofu.ApplyOptions
		wantPlan  []string // flags the plan command must carry
		wantApply []string // flags the apply command must carry
		state     string   // the state file, relative to the stack
		created   []string // the resources in it after the apply
	}{
		{
			name:    "defaults",
			state:   "terraform.tfstate",
			created: []string{"terraform_data.a", "terraform_data.b"},
		},
		{
			name:      "targets",
			plan:      tofu.PlanOptions{Targets: []string{"terraform_data.a"}},
			apply:     tofu.ApplyOptions{Targets: []string{"terraform_data.a"}},
			wantPlan:  []string{"-target=terraform_data.a"},
			wantApply: []string{"-target=terraform_data.a"},
			state:     "terraform.tfstate",
			created:   []string{"terraform_data.a"},
		},
		{
			name:      "parallelism",
			plan:      tofu.PlanOptions{Parallelism: 3},
			apply:     tofu.ApplyOptions{Parallelism: 3},
			wantPlan:  []string{"-parallelism=3"},
			wantApply: []string{"-parallelism=3"},
			state:     "terraform.tfstate",
			created:   []string{"terraform_data.a", "terraform_data.b"},
		},
		{
			name:      "refresh before apply",
			apply:     tofu.ApplyOptions{Refresh: true},
			wantApply: []string{"-refresh=true"},
			state:     "terraform.tfstate",
			created:   []string{"terraform_data.a", "terraform_data.b"},
		},
		{
			name:      "workspace",
			workspace: "blue",
			state:     "terraform.tfstate.d/blue/terraform.tfstate",
			created:   []string{"terraform_data.a", "terraform_data.b"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			dir := copyStack(t, "pair")
			bin, log := tofutest.Recording(t)
			ws, err := tofu.New(bin, dir, tofu.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := ws.Init(ctx, nil); err != nil {
				t.Fatalf("Init() = %v", err)
			}
			if tt.workspace != "" {
				if err := ws.SelectWorkspace(ctx, tt.workspace); err != nil {
					t.Fatalf("SelectWorkspace(%q) = %v", tt.workspace, err)
				}
			}
			planFile := filepath.Join(dir, "plan.out")
			tt.plan.Out = planFile
			if _, err := ws.Plan(ctx, tt.plan, nil); err != nil {
				t.Fatalf("Plan(%+v) = %v", tt.plan, err)
			}
			p, err := ws.Show(ctx, planFile)
			if err != nil {
				t.Fatal(err)
			}
			var planned []string
			for _, c := range p.Changes {
				planned = append(planned, c.Address)
			}
			if diff := cmp.Diff(tt.created, planned); diff != "" {
				t.Errorf("Plan(%+v) changes diff (-want +got):\n%s", tt.plan, diff)
			}
			if err := ws.Apply(ctx, planFile, tt.apply, nil); err != nil {
				t.Fatalf("Apply(%+v) = %v", tt.apply, err)
			}
			for verb, want := range map[string][]string{"plan": tt.wantPlan, "apply": tt.wantApply} {
				cmds := tofutest.Commands(t, log, verb)
				if len(cmds) != 1 {
					t.Fatalf("tofu ran %d %s commands, want 1", len(cmds), verb)
				}
				got := cmds[0]
				for _, flag := range want {
					if !slices.Contains(got, flag) {
						t.Errorf("tofu %s ran with %q, want %s", verb, got, flag)
					}
				}
			}
			if diff := cmp.Diff(tt.created, stateResources(t, filepath.Join(dir, tt.state))); diff != "" {
				t.Errorf("state %s resources diff (-want +got):\n%s", tt.state, diff)
			}
			if len(tt.plan.Targets) > 0 {
				return // a targeted apply leaves the outputs out
			}
			outs, err := ws.Outputs(ctx)
			if err != nil {
				t.Fatal(err)
			}
			wantWS := tt.workspace
			if wantWS == "" {
				wantWS = tofu.DefaultWorkspace
			}
			if got := outs["workspace"].Value; got != wantWS {
				t.Errorf("output workspace = %v, want %s", got, wantWS)
			}
		})
	}
}
