package history

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestResultPredicates(t *testing.T) {
	type answers struct{ Converged, Ready, Failed bool }
	tests := []struct {
		result Result
		want   answers
	}{
		{ResultApplied, answers{Converged: true, Ready: true}},
		{ResultPlanned, answers{Converged: true, Ready: true}},
		{ResultNoChanges, answers{Converged: true, Ready: true}},
		{ResultUnchanged, answers{Converged: true, Ready: true}},
		{ResultOrphaned, answers{Converged: true, Ready: true}},
		{ResultWaiting, answers{Ready: true}},
		{ResultSuspended, answers{Ready: true}},
		{ResultHeld, answers{}},
		{ResultRunning, answers{}},
		{ResultFailed, answers{Failed: true}},
		{ResultSkipped, answers{Failed: true}},
		{ResultInterrupted, answers{Failed: true}},
		{"", answers{}},
		{"bogus", answers{}},
	}
	for _, tt := range tests {
		t.Run(string(tt.result), func(t *testing.T) {
			got := answers{Converged: tt.result.Converged(), Ready: tt.result.Ready(), Failed: tt.result.Failed()}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Result(%q) answers mismatch (-want +got):\n%s", tt.result, diff)
			}
		})
	}
}

func TestResultsListEveryEndOfAReconcile(t *testing.T) {
	seen := map[Result]bool{}
	for _, r := range Results {
		if seen[r] {
			t.Errorf("Results lists %q twice", r)
		}
		seen[r] = true
		if r == ResultRunning {
			t.Errorf("Results lists %q, which only history holds", r)
		}
	}
	if len(Results) != 12 || !seen[ResultInterrupted] || !seen[ResultSuspended] || !seen[ResultOrphaned] || !seen[ResultBlocked] {
		t.Errorf("Results = %v, want 12 with interrupted (a stopped reconcile's run), suspended, orphaned and blocked", Results)
	}
}
