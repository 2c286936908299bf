package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/tofu"
	"github.com/strata-iac/strata/policy"
)

// TestEvaluateFailsClosed judges one plan with changes by a policy that
// could not be loaded, by no policy at all, and by the default bundle.
func TestEvaluateFailsClosed(t *testing.T) {
	ctx := context.Background()
	data, err := os.ReadFile(filepath.Join("testdata", "plan_replace.json"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := tofu.ParsePlan(data)
	if err != nil {
		t.Fatal(err)
	}
	engine, err := policy.Load(ctx, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		policy     Policy
		wantErr    string
		wantDenied bool
	}{
		{"a policy that failed to load", FailingPolicy(errors.New("parse broken.rego: unexpected eof")),
			"policy failed to load: parse broken.rego: unexpected eof", true},
		{"no policy", nil, "no policy engine is configured", true},
		{"the default bundle denies a replace", engine, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := New(Config{Policy: tt.policy, HashKey: []byte("0123456789abcdef0123456789abcdef")})
			st := &runState{
				req:  Request{Client: "acme", Env: "dev", Stack: &environment.Stack{Name: "app"}},
				log:  r.cfg.Logger,
				plan: planned{plan: p, changed: true},
			}
			rv := r.evaluate(ctx, st)
			gotErr := ""
			if rv.Err != nil {
				gotErr = rv.Err.Error()
			}
			if gotErr != tt.wantErr || rv.Denied() != tt.wantDenied || rv.PlanID == "" {
				t.Errorf("evaluate(%s) = %q, denied %v, plan id %q, want %q, denied %v and a plan id",
					tt.name, gotErr, rv.Denied(), rv.PlanID, tt.wantErr, tt.wantDenied)
			}
		})
	}
}
