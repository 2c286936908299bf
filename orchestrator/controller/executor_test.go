package controller

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/source"
	"github.com/strata-iac/strata/policy"
)

// TestOutcomeRoundTrip checks that what a run returned comes back the same
// after the trip through JSON that a runner Job makes: the typed errors the
// scheduler tells apart, the review's error and the duration included.
func TestOutcomeRoundTrip(t *testing.T) {
	run := history.Run{Number: 3, Stack: "network", Result: history.ResultHeld, PlanID: "plan-1234", Duration: 1500 * time.Millisecond}
	tests := []struct {
		name string
		res  runner.Result
		err  error
	}{
		{"applied", runner.Result{Stack: "network", Run: run, Changes: []string{"create terraform_data.x"}}, nil},
		{"held", runner.Result{Stack: "network", Run: run, Review: &runner.Review{PlanID: "plan-1234", Decision: policy.Decision{Denies: []policy.Finding{{Rule: "deny_delete", Address: "terraform_data.x"}}}}},
			&runner.HeldError{Stack: "network", PlanID: "plan-1234", Reason: "deny_delete", PlanFile: "/held/plan", Approve: "strata approve"}},
		{"waiting", runner.Result{Stack: "app", Run: run}, &runner.WaitingError{Stack: "app", Contract: "network", Key: "/configuration/network", Producer: "network"}},
		{"suspended", runner.Result{Stack: "app", Run: history.Run{Stack: "app", Result: history.ResultSuspended}}, &runner.SuspendedError{Stack: "app", File: "flux-apps/app/terraform.yaml"}},
		{"policy failed", runner.Result{Stack: "network", Run: run, Review: &runner.Review{PlanID: "plan-1", Err: errors.New("rego: parse error")}}, errors.New("plan plan-1 held")},
		{"failed", runner.Result{Stack: "network", Run: run}, errors.New("plan stack network: exit status 1")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(NewOutcome(tt.res, tt.err))
			if err != nil {
				t.Fatalf("json.Marshal(NewOutcome(…)) = %v", err)
			}
			var o Outcome
			if err := json.Unmarshal(b, &o); err != nil {
				t.Fatalf("json.Unmarshal(%s) = %v", b, err)
			}
			res, err := o.Unpack()
			if diff := cmp.Diff(tt.res, res, cmp.Comparer(sameError)); diff != "" {
				t.Errorf("Unpack() result mismatch (-want +got):\n%s", diff)
			}
			if !sameError(tt.err, err) {
				t.Errorf("Unpack() error = %v, want %v", err, tt.err)
			}
			var held *runner.HeldError
			if errors.As(tt.err, &held) != errors.As(err, &held) {
				t.Errorf("Unpack() error %T is a HeldError: %v, want %v", err, !errors.As(tt.err, &held), errors.As(tt.err, &held))
			}
			var waiting *runner.WaitingError
			if errors.As(tt.err, &waiting) != errors.As(err, &waiting) {
				t.Errorf("Unpack() error %T is a WaitingError: %v, want %v", err, !errors.As(tt.err, &waiting), errors.As(tt.err, &waiting))
			}
			var suspended *runner.SuspendedError
			if errors.As(tt.err, &suspended) != errors.As(err, &suspended) {
				t.Errorf("Unpack() error %T is a SuspendedError: %v, want %v", err, !errors.As(tt.err, &suspended), errors.As(tt.err, &suspended))
			}
		})
	}
}

// TestRequestRoundTrip checks that a request survives JSON whole.
func TestRequestRoundTrip(t *testing.T) {
	req := Request{
		Request: runner.Request{
			Operation: history.OperationApply,
			Client:    "demo", Env: "dev", Class: "non-prod",
			Stack: &environment.Stack{
				Name: "network", Path: "terraform", Produces: "network",
				Vars:   map[string]any{"cidr": "10.0.0.0/16", "count": float64(2)},
				Source: environment.Source{Kind: environment.SourceOCIRepository, Name: "network"},
			},
			Artifact:  source.Artifact{URL: "http://source-controller/ocirepository/ns/network/sha.tar.gz", Digest: "sha256:abc", Version: "0.1.0"},
			Producers: map[string]string{"network": "network"},
		},
		Namespace: "demo-dev",
		Name:      "network",
	}
	req.Spec.ServiceAccountName = "tf-runner"
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatalf("json.Marshal(request) = %v", err)
	}
	var got Request
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("json.Unmarshal(%s) = %v", b, err)
	}
	if diff := cmp.Diff(req, got); diff != "" {
		t.Errorf("request after JSON mismatch (-want +got):\n%s", diff)
	}
}

func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Error() == b.Error()
}
