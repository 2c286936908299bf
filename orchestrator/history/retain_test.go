package history

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestExpired(t *testing.T) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	// runs are the runs before the new one, newest first: number i+1
	// counted from the oldest, each a day older than the one after.
	runs := func(results ...Run) []Run {
		out := make([]Run, len(results))
		for i, r := range results {
			n := len(results) - i
			r.Number = n
			r.StartedAt = now.Add(-time.Duration(len(results)-n+1) * Day)
			out[i] = r
		}
		return out
	}
	applied := Run{Operation: OperationApply, Result: ResultApplied}
	failed := Run{Operation: OperationApply, Result: ResultFailed}
	planned := Run{Operation: OperationPlan, Result: ResultPlanned}
	running := Run{Operation: OperationApply, Result: ResultRunning}
	byCount := func(n int) Retention { return Retention{Runs: n} }
	tests := []struct {
		name   string
		before []Run
		keep   Retention
		want   []int
	}{
		{"fewer than kept", runs(applied, failed), byCount(3), nil},
		{"one too many", runs(failed, failed, planned, failed), byCount(3), []int{2}},
		{"the first run stays", runs(failed, failed, failed), byCount(2), []int{1}},
		{"the newest good apply stays beyond the kept", runs(failed, failed, applied, failed, failed), byCount(2), []int{1, 3}},
		{"no good apply", runs(failed, planned, failed, planned), byCount(2), []int{1, 2}},
		{"only the new run kept", runs(failed, planned, failed), byCount(1), []int{0, 1}},
		{"a running run stays", runs(failed, running, failed), byCount(1), []int{0}},
		// #4 started 1 day before now, #3 2 days, #2 3 days.
		{"younger than the age stays", runs(failed, failed, failed, planned), Retention{Runs: 1, Age: 2*Day + time.Hour}, []int{2}},
		{"by count or by age, whichever keeps more", runs(failed, failed, failed, planned), Retention{Runs: 3, Age: Day + time.Hour}, []int{2}},
		{"nothing kept is nonsense", runs(applied), byCount(0), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Expired(tt.before, func(r Run) Run { return r }, tt.keep, now); !cmp.Equal(got, tt.want) {
				t.Errorf("Expired(%s, %+v) = %v, want %v", tt.name, tt.keep, got, tt.want)
			}
		})
	}
}

// TestBeginRetains: a Begin deletes the runs its environment's retention
// no longer keeps, as Expired picks them, and says which to gone;
// another environment keeps its own.
func TestBeginRetains(t *testing.T) {
	ctx := context.Background()
	start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		keep    Retention
		results []Result // one run an hour
		want    []int    // numbers kept, newest first
	}{
		{"by count", Retention{Runs: 3}, []Result{ResultApplied, ResultApplied, ResultFailed, ResultFailed, ResultFailed, ResultFailed}, []int{6, 5, 4, 2, 1}},
		{"by age", Retention{Runs: 2, Age: 3*time.Hour + time.Minute}, []Result{ResultFailed, ResultFailed, ResultFailed, ResultFailed, ResultFailed, ResultFailed, ResultFailed}, []int{7, 6, 5, 4, 1}},
		{"first and last good", Retention{Runs: 1}, []Result{ResultFailed, ResultApplied, ResultFailed, ResultFailed}, []int{4, 2, 1}},
		{"a newer good apply lets the older go", Retention{Runs: 1}, []Result{ResultFailed, ResultApplied, ResultFailed, ResultApplied, ResultFailed}, []int{5, 4, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := open(t)
			var gone []int
			s.Retain("acme", "dev", tt.keep, func(stack string, n int) {
				if stack != "network" {
					t.Errorf("gone(%q, %d), want stack network", stack, n)
				}
				gone = append(gone, n)
			})
			for i, res := range tt.results {
				at := start.Add(time.Duration(i) * time.Hour)
				for _, env := range []string{"dev", "prod"} {
					r, err := s.Begin(ctx, Run{Client: "acme", Env: env, Stack: "network", Operation: OperationApply, StartedAt: at})
					if err != nil {
						t.Fatalf("Begin(%s #%d) = %v", env, i+1, err)
					}
					finish(t, s, r, res)
				}
			}
			kept := numbersOf(t, s, "dev")
			if !cmp.Equal(kept, tt.want) {
				t.Errorf("runs kept with %+v = %v, want %v", tt.keep, kept, tt.want)
			}
			for n := 1; n <= len(tt.results); n++ {
				if !slices.Contains(kept, n) && !slices.Contains(gone, n) {
					t.Errorf("run #%d was deleted and gone was not told", n)
				}
			}
			// prod keeps DefaultRetention: everything, here.
			if got := numbersOf(t, s, "prod"); len(got) != len(tt.results) {
				t.Errorf("runs kept in prod = %v, want all %d", got, len(tt.results))
			}
			h, err := s.Head(ctx, "acme", "dev", "network")
			if err != nil {
				t.Fatal(err)
			}
			if h.Last.Number != len(tt.results) {
				t.Errorf("Head().Last = #%d, want #%d", h.Last.Number, len(tt.results))
			}
		})
	}
}

func numbersOf(t *testing.T, s *Store, env string) []int {
	t.Helper()
	runs, err := s.List(context.Background(), "acme", env, "network", 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, r := range runs {
		out = append(out, r.Number)
	}
	return out
}

func TestRetentionString(t *testing.T) {
	for _, tt := range []struct {
		keep Retention
		want string
	}{
		{DefaultRetention, "the last 100 runs of each stack and those of the last 14 days, its first run and its last good one"},
		{Retention{Runs: 5}, "the last 5 runs of each stack, its first run and its last good one"},
		{Retention{Runs: 5, Age: Day}, "the last 5 runs of each stack and those of the last day, its first run and its last good one"},
	} {
		if got := tt.keep.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.keep, got, tt.want)
		}
	}
}
