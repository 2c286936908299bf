package runner

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/source"
)

func TestCompare(t *testing.T) {
	stack := func(edit func(s *environment.Stack)) *environment.Stack {
		s := &environment.Stack{
			Name:     "app",
			Vars:     map[string]any{"name": "app", "size": float64(2)},
			Consumes: []environment.Input{{Contract: "network", As: "network"}},
		}
		if edit != nil {
			edit(s)
		}
		return s
	}
	art := source.Artifact{Version: "0.1.0", Digest: "h1:aaa"}
	tests := []struct {
		name    string
		head    *environment.Stack
		headArt source.Artifact
		want    Change
	}{
		{"nothing", stack(nil), art, Change{}},
		{"version", stack(nil), source.Artifact{Version: "0.2.0", Digest: "h1:bbb"},
			Change{Cause: CauseUpgrade, Why: "upgrading the infrastructure from version 0.1.0 to 0.2.0"}},
		{"code", stack(nil), source.Artifact{Version: "0.1.0", Digest: "h1:bbb"},
			Change{Cause: CauseConfig, Code: true, Why: "the configuration changed at version 0.1.0 (digest h1:bbb, was h1:aaa)"}},
		{"variables", stack(func(s *environment.Stack) { s.Vars["size"] = float64(3); s.Vars["zone"] = "a" }), art,
			Change{Cause: CauseVariables, Why: "variables changed: size, zone"}},
		{"targets", stack(func(s *environment.Stack) { s.Run.Targets = []string{"terraform_data.x"} }), art,
			Change{Cause: CauseConfig, Why: "the stack's spec changed: spec.targets"}},
		{"backend", stack(func(s *environment.Stack) { s.BackendConfig = `backend "s3" {}` }), art,
			Change{Cause: CauseConfig, Why: "the stack's spec changed (its backend, or the contracts it publishes or reads)"}},
		{"consumes", stack(func(s *environment.Stack) { s.Consumes = nil }), art,
			Change{Cause: CauseConfig, Why: "the stack's spec changed (its backend, or the contracts it publishes or reads)"}},
		{"values", stack(func(s *environment.Stack) { s.Values = `{"a":"${{ .network.public.vpc_id }}"}` }), art,
			Change{Cause: CauseConfig, Why: "the stack's spec changed: spec.values"}},
		{"varsFrom", stack(func(s *environment.Stack) {
			s.ContractVars = []environment.ContractVars{{Contract: "network", Field: "spec.varsFrom[0]"}}
		}), art, Change{Cause: CauseConfig, Why: "the stack's spec changed: spec.varsFrom"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Compare(stack(nil), tt.head, art, tt.headArt)
			if err != nil {
				t.Fatalf("Compare(%q) = %v", tt.name, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Compare(%q) = %v, want %v (-want +got):\n%s", tt.name, got, tt.want, diff)
			}
		})
	}
}

// A variable's value never shows in the change, only its name.
func TestCompareNamesNoValue(t *testing.T) {
	base := &environment.Stack{Name: "app", Vars: map[string]any{"password": "old-secret"}}
	head := &environment.Stack{Name: "app", Vars: map[string]any{"password": "new-secret"}}
	got, err := Compare(base, head, source.Artifact{}, source.Artifact{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "variables changed: password"; got.Why != want {
		t.Errorf("Compare().Why = %q, want %q", got.Why, want)
	}
}
