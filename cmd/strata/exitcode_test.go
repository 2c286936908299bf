package main

import (
	"testing"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/report"
)

func TestRunExitCode(t *testing.T) {
	tests := []struct {
		name     string
		results  []history.Result
		detailed bool
		want     int
		// inputs marks the last stack as waiting for inputs.
		inputs bool
	}{
		{"converged", []history.Result{history.ResultApplied, history.ResultUnchanged, history.ResultNoChanges}, false, exitConverged, false},
		{"waiting by design", []history.Result{history.ResultApplied, history.ResultWaiting}, false, exitConverged, false},
		{"failed wins over held", []history.Result{history.ResultHeld, history.ResultFailed}, false, exitFailed, false},
		{"skipped", []history.Result{history.ResultSkipped}, false, exitFailed, false},
		{"interrupted", []history.Result{history.ResultInterrupted}, false, exitFailed, false},
		{"held", []history.Result{history.ResultApplied, history.ResultHeld}, false, exitHeld, false},
		{"plan with changes", []history.Result{history.ResultPlanned, history.ResultNoChanges}, false, exitConverged, false},
		{"plan --detailed-exitcode with changes", []history.Result{history.ResultPlanned, history.ResultNoChanges}, true, exitChanges, false},
		{"plan --detailed-exitcode without changes", []history.Result{history.ResultNoChanges}, true, exitConverged, false},
		{"plan --detailed-exitcode that failed", []history.Result{history.ResultPlanned, history.ResultFailed}, true, exitFailed, false},
		{"waiting for inputs", []history.Result{history.ResultApplied, history.ResultWaiting}, false, exitWaiting, true},
		{"waiting for inputs, plan with changes", []history.Result{history.ResultPlanned, history.ResultWaiting}, true, exitWaiting, true},
		{"held wins over waiting for inputs", []history.Result{history.ResultHeld, history.ResultWaiting}, false, exitHeld, true},
		{"failed wins over waiting for inputs", []history.Result{history.ResultFailed, history.ResultWaiting}, false, exitFailed, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := &report.Report{}
			for i, r := range tt.results {
				rep.Stacks = append(rep.Stacks, report.StackReport{Stack: "s", Result: r, Inputs: tt.inputs && i == len(tt.results)-1})
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
