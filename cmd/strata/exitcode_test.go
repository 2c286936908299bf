package main

import (
	"testing"

	"github.com/strata-iac/strata/orchestrator"
	"github.com/strata-iac/strata/orchestrator/history"
)

func TestRunExitCode(t *testing.T) {
	tests := []struct {
		name     string
		results  []history.Result
		detailed bool
		want     int
	}{
		{"converged", []history.Result{history.ResultApplied, history.ResultUnchanged, history.ResultNoChanges}, false, exitConverged},
		{"waiting by design", []history.Result{history.ResultApplied, history.ResultWaiting}, false, exitConverged},
		{"failed wins over held", []history.Result{history.ResultHeld, history.ResultFailed}, false, exitFailed},
		{"skipped", []history.Result{history.ResultSkipped}, false, exitFailed},
		{"interrupted", []history.Result{history.ResultInterrupted}, false, exitFailed},
		{"held", []history.Result{history.ResultApplied, history.ResultHeld}, false, exitHeld},
		{"plan with changes", []history.Result{history.ResultPlanned, history.ResultNoChanges}, false, exitConverged},
		{"plan --detailed-exitcode with changes", []history.Result{history.ResultPlanned, history.ResultNoChanges}, true, exitChanges},
		{"plan --detailed-exitcode without changes", []history.Result{history.ResultNoChanges}, true, exitConverged},
		{"plan --detailed-exitcode that failed", []history.Result{history.ResultPlanned, history.ResultFailed}, true, exitFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := &orchestrator.Report{}
			for _, r := range tt.results {
				rep.Stacks = append(rep.Stacks, orchestrator.StackReport{Stack: "s", Result: r})
			}
			if got := runExitCode(rep, tt.detailed); got != tt.want {
				t.Errorf("runExitCode(%v, %v) = %d, want %d", tt.results, tt.detailed, got, tt.want)
			}
		})
	}
}

// TestUsageExitCode: a wrong command line exits 2.
func TestUsageExitCode(t *testing.T) {
	runCases(t, []cliCase{
		{"unknown flag", []string{"plan", "env", "--no-such-flag"}, exitUsage, nil, []string{"unknown flag: --no-such-flag"}},
		{"missing argument", []string{"apply"}, exitUsage, nil, []string{"accepts 1 arg(s), received 0"}},
		{"unknown command", []string{"aply", "env"}, exitUsage, nil, []string{`unknown command "aply"`}},
		{"bad duration", []string{"apply", "env", "--shutdown-grace", "soon"}, exitUsage, nil, []string{"invalid argument"}},
	})
}
