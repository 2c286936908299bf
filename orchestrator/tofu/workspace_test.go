package tofu_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/tofu"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// copyStack copies testdata/<name> into a fresh directory.
func copyStack(t *testing.T, name string) string {
	t.Helper()
	dst := t.TempDir()
	entries, err := os.ReadDir(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("testdata", name, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

func writeVars(t *testing.T, dir string, vars map[string]any) string {
	t.Helper()
	b, err := json.Marshal(vars)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "vars.tfvars.json")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPlanApplyOutputs(t *testing.T) {
	ctx := context.Background()
	dir := copyStack(t, "stack")
	ws, err := tofu.New(tofutest.Binary(t), dir, tofu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.Init(ctx, nil); err != nil {
		t.Fatalf("Init() = %v, want nil", err)
	}

	steps := []struct {
		name        string
		vars        map[string]any
		wantChanges bool
		wantVerbs   []string
		wantSummary tofu.Summary
		wantApplied []string
	}{
		{"install", map[string]any{"name": "a"}, true, []string{"create"}, tofu.Summary{Add: 1}, []string{"terraform_data.thing: create"}},
		{"unchanged", map[string]any{"name": "a"}, false, nil, tofu.Summary{}, nil},
		{"update", map[string]any{"name": "b"}, true, []string{"update"}, tofu.Summary{Change: 1}, []string{"terraform_data.thing: update"}},
		{"replace", map[string]any{"name": "b", "replace_token": "2"}, true, []string{"replace"}, tofu.Summary{Add: 1, Remove: 1}, []string{"terraform_data.thing: delete", "terraform_data.thing: create"}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			planFile := filepath.Join(dir, "plan.out")
			changes, err := ws.Plan(ctx, tofu.PlanOptions{Out: planFile, VarFiles: []string{writeVars(t, dir, st.vars)}}, nil)
			if err != nil {
				t.Fatalf("Plan() = %v, want nil", err)
			}
			if changes != st.wantChanges {
				t.Errorf("Plan() changes = %v, want %v", changes, st.wantChanges)
			}
			plan, err := ws.Show(ctx, planFile)
			if err != nil {
				t.Fatalf("Show() = %v", err)
			}
			var verbs []string
			for _, c := range plan.Changes {
				verbs = append(verbs, c.Verb())
			}
			if diff := cmp.Diff(st.wantVerbs, verbs); diff != "" {
				t.Errorf("Show() verbs diff (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(st.wantSummary, plan.Summary()); diff != "" {
				t.Errorf("Summary() diff (-want +got):\n%s", diff)
			}
			if !json.Valid(plan.JSON) {
				t.Errorf("Show() JSON is not valid JSON")
			}
			var applied []string
			err = ws.Apply(ctx, planFile, tofu.ApplyOptions{}, func(e tofu.Event) {
				if e.Type == "apply_complete" {
					applied = append(applied, e.Resource+": "+e.Action)
				}
			})
			if err != nil {
				t.Fatalf("Apply() = %v, want nil", err)
			}
			if diff := cmp.Diff(st.wantApplied, applied); diff != "" {
				t.Errorf("Apply() events diff (-want +got):\n%s", diff)
			}
			outs, err := ws.Outputs(ctx)
			if err != nil {
				t.Fatalf("Outputs() = %v", err)
			}
			want := map[string]tofu.Output{
				"name":   {Value: st.vars["name"], Type: json.RawMessage(`"string"`)},
				"secret": {Value: "s3cr3t-" + st.vars["name"].(string), Sensitive: true, Type: json.RawMessage(`"string"`)},
			}
			if diff := cmp.Diff(want, outs); diff != "" {
				t.Errorf("Outputs() diff (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPlanErrorCarriesDiagnostics(t *testing.T) {
	ctx := context.Background()
	dir := copyStack(t, "broken")
	ws, err := tofu.New(tofutest.Binary(t), dir, tofu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = ws.Init(ctx, nil)
	if err == nil {
		_, err = ws.Plan(ctx, tofu.PlanOptions{Out: filepath.Join(dir, "plan.out")}, nil)
	}
	var terr *tofu.Error
	if !errors.As(err, &terr) {
		t.Fatalf("Plan() = %v, want a *tofu.Error", err)
	}
	if len(terr.Diagnostics) == 0 || terr.Diagnostics[0].File != "main.tf" || terr.Diagnostics[0].Line != 2 {
		t.Errorf("Plan() diagnostics = %+v, want one in main.tf line 2", terr.Diagnostics)
	}
}
