package recordstest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/history"
)

// testRetain: every keeper of the records lets the same runs go as the
// next run of their stack begins (history.Retention): those that are
// neither among the stack's newest Runs, nor younger than Age, nor its
// first run, nor its last good one; and says which to gone, once
// deleted. Another environment keeps its own.
func testRetain(t *testing.T, impl Impl) {
	ctx := context.Background()
	h := impl.Open(t).History
	var gone []int
	h.Retain("acme", "dev", history.Retention{Runs: 2, Age: 90 * time.Minute}, func(stack string, n int) {
		if stack != "network" {
			t.Errorf("gone(%q, #%d), want network's runs only", stack, n)
		}
		gone = append(gone, n)
	})
	h.Retain("acme", "prod", history.Retention{Runs: 100}, nil)
	results := []history.Result{history.ResultFailed, history.ResultApplied, history.ResultFailed, history.ResultFailed, history.ResultFailed, history.ResultApplied, history.ResultFailed, history.ResultFailed}
	for i, res := range results {
		for _, env := range []string{"dev", "prod"} {
			r := run("network", history.OperationApply)
			r.Env, r.StartedAt = env, at.Add(time.Duration(i)*time.Hour)
			finish(t, h, r, res)
		}
	}
	numbers := func(env string) []int {
		runs, err := h.List(ctx, "acme", env, "network", 0)
		if err != nil {
			t.Fatal(err)
		}
		var out []int
		for _, r := range runs {
			out = append(out, r.Number)
		}
		return out
	}
	// #8 and #7 by count and by age, #6 the last good one, #1 the first.
	if got, want := numbers("dev"), []int{8, 7, 6, 1}; !cmp.Equal(got, want) {
		t.Errorf("runs of dev kept = %v, want %v", got, want)
	}
	slices.Sort(gone)
	if want := []int{2, 3, 4, 5}; !cmp.Equal(gone, want) {
		t.Errorf("gone = %v, want %v", gone, want)
	}
	if got := numbers("prod"); len(got) != len(results) {
		t.Errorf("runs of prod kept = %v, want all %d", got, len(results))
	}
	g, ok, err := h.LastGood(ctx, "acme", "dev", "network")
	if err != nil || !ok || g.Number != 6 {
		t.Errorf("LastGood(network) = #%d, %v, %v, want #6", g.Number, ok, err)
	}
	hd, err := h.Head(ctx, "acme", "dev", "network")
	if err != nil || hd.Last.Number != 8 || hd.Good.Number != 6 {
		t.Errorf("Head(network) = last #%d, good #%d, %v, want #8 and #6", hd.Last.Number, hd.Good.Number, err)
	}
}
