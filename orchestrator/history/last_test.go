package history

import (
	"context"
	"testing"
)

func TestLastAndLastMatching(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	finish(t, s, begin(t, s, "acme", "dev", "network"), ResultApplied)   // #1
	finish(t, s, begin(t, s, "acme", "dev", "network"), ResultFailed)    // #2
	finish(t, s, begin(t, s, "acme", "dev", "network"), ResultApplied)   // #3
	finish(t, s, begin(t, s, "acme", "dev", "network"), ResultNoChanges) // #4
	finish(t, s, begin(t, s, "acme", "dev", "api"), ResultHeld)          // api #1

	result := func(want Result) func(Run) bool { return func(r Run) bool { return r.Result == want } }
	tests := []struct {
		name       string
		stack      string
		match      func(Run) bool
		wantOK     bool
		wantNumber int
	}{
		{"last", "network", nil, true, 4},
		{"last of another stack", "api", nil, true, 1},
		{"last of a stack without runs", "cluster", nil, false, 0},
		{"newest applied", "network", result(ResultApplied), true, 3},
		{"newest failed", "network", result(ResultFailed), true, 2},
		{"nothing matches", "network", result(ResultHeld), false, 0},
		{"everything matches", "network", func(Run) bool { return true }, true, 4},
		{"matching without runs", "cluster", result(ResultApplied), false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var (
				got Run
				ok  bool
				err error
			)
			if tt.match == nil {
				got, ok, err = s.Last(ctx, "acme", "dev", tt.stack)
			} else {
				got, ok, err = s.LastMatching(ctx, "acme", "dev", tt.stack, tt.match)
			}
			if err != nil {
				t.Fatalf("Last(%q) error = %v, want nil", tt.stack, err)
			}
			if ok != tt.wantOK || got.Number != tt.wantNumber {
				t.Errorf("Last(%q) = #%d, %v, want #%d, %v", tt.stack, got.Number, ok, tt.wantNumber, tt.wantOK)
			}
		})
	}
}

func TestLastUnknownEnvironment(t *testing.T) {
	s, _ := open(t)
	begin(t, s, "acme", "dev", "network")
	for _, k := range [][2]string{{"other", "dev"}, {"acme", "prod"}} {
		if _, ok, err := s.Last(context.Background(), k[0], k[1], "network"); ok || err != nil {
			t.Errorf("Last(%s/%s/network) = %v, %v, want false, nil", k[0], k[1], ok, err)
		}
	}
}

func TestLastGood(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	run := func(stack string, op Operation, result Result) {
		t.Helper()
		r, err := s.Begin(ctx, Run{Client: "acme", Env: "dev", Stack: stack, Operation: op})
		if err != nil {
			t.Fatal(err)
		}
		finish(t, s, r, result)
	}
	run("network", OperationApply, ResultApplied)   // #1
	run("network", OperationApply, ResultNoChanges) // #2
	run("network", OperationApply, ResultFailed)    // #3
	run("network", OperationPlan, ResultNoChanges)  // #4: a plan changes nothing
	run("network", OperationApply, ResultHeld)      // #5
	run("api", OperationApply, ResultApplied)       // api #1
	run("api", OperationApply, ResultUnchanged)     // api #2: never recorded by the runner, never good
	run("cache", OperationPlan, ResultPlanned)      // cache #1
	run("cache", OperationApply, ResultWaiting)     // cache #2

	tests := []struct {
		stack      string
		wantOK     bool
		wantNumber int
	}{
		{"network", true, 2},
		{"api", true, 1},
		{"cache", false, 0},
		{"cluster", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.stack, func(t *testing.T) {
			got, ok, err := s.LastGood(ctx, "acme", "dev", tt.stack)
			if err != nil {
				t.Fatalf("LastGood(%q) error = %v, want nil", tt.stack, err)
			}
			if ok != tt.wantOK || got.Number != tt.wantNumber {
				t.Errorf("LastGood(%q) = #%d, %v, want #%d, %v", tt.stack, got.Number, ok, tt.wantNumber, tt.wantOK)
			}
		})
	}
}
