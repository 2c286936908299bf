//go:build kube

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/controller"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runjob"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/source"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// TestRunner runs strata runner as a runner pod does: a request file in,
// JSON log lines on stdout, the outcome in the termination log.
func TestRunner(t *testing.T) {
	tofuBin := tofutest.Binary(t)
	url, digest := testkit.ServeTarball(t, filepath.Join("testdata", "runner-stack"))
	write := func(t *testing.T, src source.Artifact) string {
		req := runjob.Request{
			Run: controller.Request{Request: runner.Request{
				Operation: history.OperationApply, Client: "acme", Env: "dev", Class: "non-prod",
				Stack:    &environment.Stack{Name: "network", ApprovePlan: "auto", Vars: map[string]any{"name": "vpc"}, Produces: "network"},
				Artifact: src,
			}, Namespace: "infra", Name: "network"},
			Path:     ".",
			Settings: environment.Settings{Contracts: environment.ContractSettings{Store: environment.ContractsLocal, Prefix: "/configuration"}},
		}
		b, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "request.json")
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := source.Artifact{URL: url, Digest: digest}
	tampered := source.Artifact{URL: url, Digest: "sha256:" + strings.Repeat("0", 64)}
	tests := []struct {
		name     string
		src      *source.Artifact
		args     []string
		code     int
		outcome  runjob.Summary
		out, err []string
	}{
		{"applies the stack", &good, nil, 0,
			runjob.Summary{Stack: "network", Result: "applied", Run: 1, Message: "the infrastructure is up to date"},
			[]string{`"msg":"run #1 started"`, `"stack":"network"`, `"msg":"apply complete: 1 added, 0 changed, 0 destroyed"`,
				`{"strataOutcome":{"outcome":{"result":{"Stack":"network"`, `"contract":{"installed":true,"version":"","stack":"network"`, `"public":{"name":"vpc"}`}, nil},
		{"refuses code whose digest differs", &tampered, nil, 1,
			runjob.Summary{Stack: "network", Result: "failed"}, nil, []string{"the artifact changed or was tampered with"}},
		{"no request", nil, []string{"--request", "/nonexistent/request.json"}, 1, runjob.Summary{}, nil, []string{"read run request"}},
		{"a timeout of 0", &good, []string{"--timeout", "0"}, 2, runjob.Summary{}, nil, []string{"--timeout is 0s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			term := filepath.Join(t.TempDir(), "termination-log")
			args := []string{"runner", "--tofu", tofuBin, "--state-dir", t.TempDir(), "--termination-log", term}
			if tt.src != nil {
				args = append(args, "--request", write(t, *tt.src))
			}
			args = append(args, tt.args...)
			checkRun(t, args, tt.code, tt.out, tt.err)
			b, err := os.ReadFile(term)
			if tt.outcome == (runjob.Summary{}) {
				if err == nil {
					t.Errorf("strata %q wrote an outcome, %s, want none", args, b)
				}
				return
			}
			var got runjob.Summary
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatalf("strata %q outcome %q: %v", args, b, err)
			}
			if tt.outcome.Message == "" {
				got.Message = ""
			}
			if tt.outcome.Result == "applied" {
				if !strings.HasPrefix(got.PlanID, "plan-") {
					t.Errorf("strata %q outcome plan id = %q, want the applied plan's", args, got.PlanID)
				}
				got.PlanID = ""
			}
			if diff := cmp.Diff(tt.outcome, got); diff != "" {
				t.Errorf("strata %q outcome (-want +got):\n%s", args, diff)
			}
		})
	}
}
