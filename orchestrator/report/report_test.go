package report_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/report"
)

func TestReportAnswers(t *testing.T) {
	t.Parallel()
	type answers struct{ Converged, Ready, Held, Failed bool }
	tests := []struct {
		name    string
		results []history.Result
		want    answers
	}{
		{"no stacks", nil, answers{Converged: true, Ready: true}},
		{"all converged", []history.Result{history.ResultApplied, history.ResultPlanned, history.ResultNoChanges, history.ResultUnchanged},
			answers{Converged: true, Ready: true}},
		{"waiting", []history.Result{history.ResultApplied, history.ResultWaiting}, answers{Ready: true}},
		{"held", []history.Result{history.ResultApplied, history.ResultHeld, history.ResultWaiting}, answers{Held: true}},
		{"failed", []history.Result{history.ResultFailed, history.ResultApplied}, answers{Failed: true}},
		{"skipped", []history.Result{history.ResultSkipped}, answers{Failed: true}},
		{"held and failed", []history.Result{history.ResultHeld, history.ResultFailed}, answers{Held: true, Failed: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := &report.Report{}
			for _, r := range tt.results {
				rep.Stacks = append(rep.Stacks, report.StackReport{Stack: string(r), Result: r})
			}
			got := answers{Converged: rep.Converged(), Ready: rep.Ready(), Held: rep.Held(), Failed: rep.Failed()}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Report(%v) answers mismatch (-want +got):\n%s", tt.results, diff)
			}
		})
	}
}

func TestReportLine(t *testing.T) {
	t.Parallel()
	rep := &report.Report{Client: "acme", Environment: "dev", Operation: history.OperationApply}
	for _, r := range []history.Result{history.ResultFailed, history.ResultApplied, history.ResultHeld, history.ResultApplied, history.ResultWaiting} {
		rep.Stacks = append(rep.Stacks, report.StackReport{Result: r})
	}
	want := "apply acme/dev finished in 0s: 2 applied, 1 held, 1 waiting, 1 failed"
	if got := rep.Line(); got != want {
		t.Errorf("Line() = %q, want %q", got, want)
	}
}
