package main

import (
	"testing"

	"github.com/strata-iac/strata/orchestrator"
	"github.com/strata-iac/strata/orchestrator/runner"
)

func TestRunExitCode(t *testing.T) {
	tests := []struct {
		name     string
		results  []string
		detailed bool
		want     int
	}{
		{"converged", []string{runner.ResultApplied, runner.ResultUnchanged, runner.ResultNoChanges}, false, exitConverged},
		{"waiting by design", []string{runner.ResultApplied, runner.ResultWaiting}, false, exitConverged},
		{"failed wins over held", []string{runner.ResultHeld, runner.ResultFailed}, false, exitFailed},
		{"skipped", []string{runner.ResultSkipped}, false, exitFailed},
		{"interrupted", []string{runner.ResultInterrupted}, false, exitFailed},
		{"held", []string{runner.ResultApplied, runner.ResultHeld}, false, exitHeld},
		{"plan with changes", []string{runner.ResultPlanned, runner.ResultNoChanges}, false, exitConverged},
		{"plan --detailed-exitcode with changes", []string{runner.ResultPlanned, runner.ResultNoChanges}, true, exitChanges},
		{"plan --detailed-exitcode without changes", []string{runner.ResultNoChanges}, true, exitConverged},
		{"plan --detailed-exitcode that failed", []string{runner.ResultPlanned, runner.ResultFailed}, true, exitFailed},
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
