package recordstest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/strata-iac/strata/orchestrator/history"
)

var at = time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)

// run is a run of acme/dev's stack.
func run(stack string, op history.Operation) history.Run {
	return history.Run{Client: "acme", Env: "dev", Stack: stack, Operation: op, StartedAt: at, ToVersion: "1.0.0", Digest: "sha256:ab"}
}

// begin begins a run, or fails the test.
func begin(t *testing.T, h History, r history.Run) history.Run {
	t.Helper()
	got, err := h.Begin(context.Background(), r)
	if err != nil {
		t.Fatalf("Begin(%q) = %v", r.Stack, err)
	}
	return got
}

// finish begins and records a run that ended with result.
func finish(t *testing.T, h History, r history.Run, result history.Result) history.Run {
	t.Helper()
	r = begin(t, h, r)
	r.Result, r.Duration = result, 1500*time.Millisecond
	if err := h.Record(context.Background(), r); err != nil {
		t.Fatalf("Record(%q #%d) = %v", r.Stack, r.Number, err)
	}
	return r
}

func testNumbers(t *testing.T, impl Impl) {
	h := impl.Open(t).History
	tests := []struct {
		stack string
		want  int
	}{
		{"network", 1}, {"network", 2}, {"cluster", 1}, {"network", 3}, {"cluster", 2},
	}
	for _, tt := range tests {
		got := begin(t, h, run(tt.stack, history.OperationApply))
		if got.Number != tt.want || got.Result != history.ResultRunning {
			t.Errorf("Begin(%q) = #%d %s, want #%d running", tt.stack, got.Number, got.Result, tt.want)
		}
	}
	other := run("network", history.OperationApply)
	other.Env = "prod"
	if got := begin(t, h, other); got.Number != 1 {
		t.Errorf("Begin(prod network) = #%d, want #1: numbers count per environment", got.Number)
	}
	noTime := run("dns", history.OperationPlan)
	noTime.StartedAt = time.Time{}
	if got := begin(t, h, noTime); got.StartedAt.IsZero() {
		t.Errorf("Begin(%q) without StartedAt = zero time, want now", noTime.Stack)
	}
	if _, err := h.Begin(context.Background(), history.Run{Client: "acme", Env: "dev"}); err == nil {
		t.Errorf("Begin(no stack) = nil, want an error")
	}
}

func testRecord(t *testing.T, impl Impl) {
	ctx := context.Background()
	h := impl.Open(t).History
	r := begin(t, h, run("network", history.OperationApply))
	r.Result, r.Cause, r.Duration = history.ResultApplied, "install", 2*time.Second
	r.Summary = history.Summary{Add: 3}
	r.Inputs = map[string]string{"cidr": "0a1b"}
	if err := h.Record(ctx, r); err != nil {
		t.Fatalf("Record(#%d) = %v", r.Number, err)
	}
	got, ok, err := h.Last(ctx, "acme", "dev", "network")
	if err != nil || !ok || !cmp.Equal(got, r) {
		t.Errorf("Last() = %+v, %v, %v, want %+v", got, ok, err, r)
	}
	missing := r
	missing.Number = 7
	if err := h.Record(ctx, missing); err == nil {
		t.Errorf("Record(#7, never begun) = nil, want an error")
	}
}

func testLast(t *testing.T, impl Impl) {
	ctx := context.Background()
	h := impl.Open(t).History
	if _, ok, err := h.Last(ctx, "acme", "dev", "network"); ok || err != nil {
		t.Errorf("Last(no runs) = %v, %v, want false, nil", ok, err)
	}
	good := finish(t, h, run("network", history.OperationApply), history.ResultApplied)
	finish(t, h, run("network", history.OperationPlan), history.ResultPlanned)
	failed := finish(t, h, run("network", history.OperationApply), history.ResultFailed)

	tests := []struct {
		name string
		read func() (history.Run, bool, error)
		want int
	}{
		{"Last", func() (history.Run, bool, error) { return h.Last(ctx, "acme", "dev", "network") }, failed.Number},
		{"LastGood", func() (history.Run, bool, error) { return h.LastGood(ctx, "acme", "dev", "network") }, good.Number},
		{"LastMatching plan", func() (history.Run, bool, error) {
			return h.LastMatching(ctx, "acme", "dev", "network", func(r history.Run) bool { return r.Operation == history.OperationPlan })
		}, 2},
		{"LastMatching none", func() (history.Run, bool, error) {
			return h.LastMatching(ctx, "acme", "dev", "network", func(history.Run) bool { return false })
		}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := tt.read()
			if err != nil || ok != (tt.want > 0) || got.Number != tt.want {
				t.Errorf("%s(network) = #%d, %v, %v, want #%d", tt.name, got.Number, ok, err, tt.want)
			}
		})
	}
	if got, _, _ := h.LastGood(ctx, "acme", "dev", "network"); !cmp.Equal(got, good) {
		t.Errorf("LastGood(network) = %+v, want %+v", got, good)
	}
}

func testList(t *testing.T, impl Impl) {
	ctx := context.Background()
	h := impl.Open(t).History
	for _, s := range []string{"network", "cluster", "network", "apps", "network"} {
		finish(t, h, run(s, history.OperationApply), history.ResultApplied)
	}
	other := run("dns", history.OperationApply)
	other.Env = "prod"
	begin(t, h, other)

	stacks, err := h.Stacks(ctx, "acme", "dev")
	if want := []string{"apps", "cluster", "network"}; err != nil || !cmp.Equal(stacks, want) {
		t.Errorf("Stacks(acme/dev) = %v, %v, want %v", stacks, err, want)
	}
	tests := []struct {
		stack string
		limit int
		want  []int
	}{
		{"network", 0, []int{3, 2, 1}},
		{"network", 2, []int{3, 2}},
		{"cluster", 5, []int{1}},
		{"unknown", 0, nil},
	}
	for _, tt := range tests {
		runs, err := h.List(ctx, "acme", "dev", tt.stack, tt.limit)
		var got []int
		for _, r := range runs {
			got = append(got, r.Number)
		}
		if err != nil || !cmp.Equal(got, tt.want) {
			t.Errorf("List(%q, %d) = %v, %v, want %v", tt.stack, tt.limit, got, err, tt.want)
		}
	}
}

func testClaim(t *testing.T, impl Impl) {
	ctx := context.Background()
	h := impl.Open(t).History
	never := func(string) bool { return false }
	tests := []struct {
		name  string
		owner string
		keys  []string
		gone  func(string) bool
		want  map[string]string
	}{
		{"first owner", "environments/acme/dev", []string{"identity:acme/dev", "state:s3:b,dev/net"}, never, nil},
		{"same owner again", "environments/acme/dev", []string{"identity:acme/dev"}, never, nil},
		{"another owner", "environments/acme/copy", []string{"identity:acme/copy", "state:s3:b,dev/net"}, never,
			map[string]string{"state:s3:b,dev/net": "environments/acme/dev"}},
		{"conflict recorded nothing", "environments/acme/other", []string{"identity:acme/copy"}, never, nil},
		{"owner gone", "environments/acme/copy", []string{"state:s3:b,dev/net"}, func(o string) bool { return o == "environments/acme/dev" }, nil},
		{"passed over", "environments/acme/dev", []string{"state:s3:b,dev/net"}, never,
			map[string]string{"state:s3:b,dev/net": "environments/acme/copy"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := h.Claim(ctx, tt.owner, tt.keys, tt.gone)
			if err != nil || !cmp.Equal(got, tt.want, cmpopts.EquateEmpty()) {
				t.Errorf("Claim(%q, %v) = %v, %v, want %v", tt.owner, tt.keys, got, err, tt.want)
			}
		})
	}
}

func testInterrupted(t *testing.T, impl Impl) {
	ctx := context.Background()
	first := impl.Open(t)
	done := finish(t, first.History, run("network", history.OperationApply), history.ResultApplied)
	left := begin(t, first.History, run("network", history.OperationApply))
	next := impl.Next(t, first)
	begin(t, next.History, run("network", history.OperationApply))

	runs, err := next.History.List(ctx, "acme", "dev", "network", 0)
	if err != nil || len(runs) != 3 {
		t.Fatalf("List(network) = %d runs, %v, want 3", len(runs), err)
	}
	got := map[int]history.Result{}
	for _, r := range runs {
		got[r.Number] = r.Result
	}
	want := map[int]history.Result{done.Number: history.ResultApplied, left.Number: history.ResultInterrupted, left.Number + 1: history.ResultRunning}
	if !cmp.Equal(got, want) {
		t.Errorf("results after the next writer began = %v, want %v", got, want)
	}
	if runs[1].Error != history.InterruptedError {
		t.Errorf("interrupted run's Error = %q, want %q", runs[1].Error, history.InterruptedError)
	}
}

func testRace(t *testing.T, impl Impl) {
	ctx := context.Background()
	first := impl.Open(t)
	writers := []History{first.History, impl.Replica(t, first).History}
	const each = 8
	var (
		mu      sync.Mutex
		numbers []int
		wg      sync.WaitGroup
		errs    = make(chan error, 2*each)
	)
	for w, h := range writers {
		wg.Go(func() {
			for i := range each {
				r := run("network", history.OperationApply)
				r.Note = fmt.Sprintf("writer %d, run %d", w, i)
				got, err := h.Begin(ctx, r)
				if err != nil {
					errs <- err
					return
				}
				mu.Lock()
				numbers = append(numbers, got.Number)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("Begin() racing = %v", err)
	}
	slices.Sort(numbers)
	var want []int
	for n := 1; n <= 2*each; n++ {
		want = append(want, n)
	}
	if !cmp.Equal(numbers, want) {
		t.Errorf("numbers two writers took = %v, want each of %v once", numbers, want)
	}
	runs, err := first.History.List(ctx, "acme", "dev", "network", 0)
	if err != nil || len(runs) != 2*each {
		t.Errorf("List(network) after the race = %d runs, %v, want %d", len(runs), err, 2*each)
	}
}

// testHead records every kind of run a reconcile leaves and checks, after
// each, that the stack's head is what Last, LastMatching (not an unlock)
// and LastGood return, made Brief.
func testHead(t *testing.T, impl Impl) {
	ctx := context.Background()
	rec := impl.Open(t)
	h := rec.History
	check := func(step string, last, ran, good int) {
		t.Helper()
		got, err := h.Head(ctx, "acme", "dev", "network")
		if err != nil {
			t.Fatalf("%s: Head(network) = %v", step, err)
		}
		l, _, err := h.Last(ctx, "acme", "dev", "network")
		if err != nil {
			t.Fatal(err)
		}
		r, _, err := h.LastMatching(ctx, "acme", "dev", "network", func(r history.Run) bool { return r.Operation != history.OperationUnlock })
		if err != nil {
			t.Fatal(err)
		}
		g, _, err := h.LastGood(ctx, "acme", "dev", "network")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(history.HeadOf(l, r, g), got); diff != "" {
			t.Errorf("%s: Head(network) mismatch with the runs (-runs +head):\n%s", step, diff)
		}
		if got.Last.Number != last || got.Ran.Number != ran || got.Good.Number != good {
			t.Errorf("%s: Head(network) = last #%d, ran #%d, good #%d, want #%d, #%d, #%d",
				step, got.Last.Number, got.Ran.Number, got.Good.Number, last, ran, good)
		}
	}
	check("no run", 0, 0, 0)
	applied := run("network", history.OperationApply)
	applied.Inputs, applied.StateSerial, applied.StateLineage, applied.Summary = map[string]string{"cidr": "0a1b"}, 3, "l-1", history.Summary{Add: 2}
	finish(t, h, applied, history.ResultApplied)
	check("applied", 1, 1, 1)
	finish(t, h, run("network", history.OperationPlan), history.ResultNoChanges)
	check("a drift check", 2, 2, 1)
	finish(t, h, run("network", history.OperationApply), history.ResultHeld)
	check("a plan held", 3, 3, 1)
	finish(t, h, run("network", history.OperationUnlock), history.ResultUnlocked)
	check("an unlock", 4, 3, 1)
	failed := run("network", history.OperationApply)
	failed.Error = "tofu apply: exit status 1"
	finish(t, h, failed, history.ResultFailed)
	check("failed", 5, 5, 1)
	destroyed := run("network", history.OperationApply)
	destroyed.Cause = "destroy"
	finish(t, h, destroyed, history.ResultApplied)
	check("destroyed", 6, 6, 6)
	removed := run("network", history.OperationApply)
	removed.Cause, removed.DestroyResourcesOnDeletion = "removed", true
	finish(t, h, removed, history.ResultApplied)
	check("removed", 7, 7, 7)
	begin(t, h, run("network", history.OperationApply))
	check("running", 8, 8, 7)
	rec = impl.Next(t, rec)
	h = rec.History
	begin(t, h, run("network", history.OperationApply))
	check("the next writer interrupted #8 and began #9", 9, 9, 7)
	if got, err := h.Head(ctx, "acme", "dev", "network"); err == nil {
		if got.Good.Summary != (history.Summary{}) || got.Good.Cause != "removed" || !got.Good.DestroyResourcesOnDeletion {
			t.Errorf("Head(network).Good = %+v, want the removal without its summary", got.Good)
		}
	}
}
