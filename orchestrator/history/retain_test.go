package history

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExpired(t *testing.T) {
	applied := Run{Operation: OperationApply, Result: ResultApplied}
	failed := Run{Operation: OperationApply, Result: ResultFailed}
	planned := Run{Operation: OperationPlan, Result: ResultPlanned}
	tests := []struct {
		name   string
		before []Run
		keep   int
		want   []int
	}{
		{"fewer than kept", []Run{applied, failed}, 3, nil},
		{"one too many", []Run{failed, applied, failed}, 3, []int{2}},
		{"the newest good apply stays beyond the kept", []Run{failed, failed, applied, failed}, 2, []int{1, 3}},
		{"no good apply", []Run{failed, planned, failed}, 2, []int{1, 2}},
		{"only the new run kept", []Run{applied, failed}, 1, []int{1}},
		{"nothing kept is nonsense", []Run{applied}, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Expired(tt.before, func(r Run) Run { return r }, tt.keep); !cmp.Equal(got, tt.want) {
				t.Errorf("Expired(%s, %d) = %v, want %v", tt.name, tt.keep, got, tt.want)
			}
		})
	}
}
