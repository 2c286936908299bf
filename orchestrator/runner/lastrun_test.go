package runner

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
)

// countingHistory is the real history, counting the reads of a stack's
// head and of its runs.
type countingHistory struct {
	History
	head, runs atomic.Int32
}

func (h *countingHistory) Head(ctx context.Context, client, env, stack string) (history.Head, error) {
	h.head.Add(1)
	return h.History.Head(ctx, client, env, stack)
}

func (h *countingHistory) Last(ctx context.Context, client, env, stack string) (history.Run, bool, error) {
	h.runs.Add(1)
	return h.History.Last(ctx, client, env, stack)
}

func (h *countingHistory) LastMatching(ctx context.Context, client, env, stack string, match func(history.Run) bool) (history.Run, bool, error) {
	h.runs.Add(1)
	return h.History.LastMatching(ctx, client, env, stack, match)
}

func (h *countingHistory) LastGood(ctx context.Context, client, env, stack string) (history.Run, bool, error) {
	h.runs.Add(1)
	return h.History.LastGood(ctx, client, env, stack)
}

// TestHeadReadOnce runs the steps before a run begins that read the
// stack's history (the reconcile loop's retry wait, the last good apply
// and the state check) over a history whose last run did not end well:
// they read the stack's head once and no run, and each still sees the
// last run and the last good apply.
func TestHeadReadOnce(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name        string
		last        history.Result
		interrupted []string
		wantChange  string
	}{
		{"failed", history.ResultFailed, nil, "the last run, #2, was failed, so the state is planned again"},
		{"interrupted", history.ResultInterrupted, []string{"terraform_data.a"}, "the last run, #2, was interrupted, so the state is planned again"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			store := historyOf(t, dir, history.Run{Operation: history.OperationApply, Result: history.ResultApplied, ToVersion: "1.2.0"},
				history.Run{Operation: history.OperationApply, Result: tt.last, Error: "boom", Interrupted: tt.interrupted},
				history.Run{Operation: history.OperationUnlock, Result: history.ResultUnlocked})
			h := &countingHistory{History: store}
			r := New(Config{StateDir: dir, History: h, RetryWait: true})
			st := r.newState(Request{Operation: history.OperationApply, Client: "acme", Env: "dev", Stack: &environment.Stack{Name: "app"}}, nil)
			for _, s := range []step{r.waitToRetry, r.readLastGood, r.checkState} {
				if err := s(ctx, st); err != nil {
					t.Fatalf("step = %v, want nil (the last run was an hour ago)", err)
				}
			}
			if got, runs := h.head.Load(), h.runs.Load(); got != 1 || runs != 0 {
				t.Errorf("waitToRetry, readLastGood and checkState read the head %d times and runs %d times, want 1 and 0", got, runs)
			}
			if !st.hasPrev || st.prev.Number != 1 || st.run.FromVersion != "1.2.0" {
				t.Errorf("readLastGood() prev = #%d (%v), FromVersion %q, want #1, 1.2.0", st.prev.Number, st.hasPrev, st.run.FromVersion)
			}
			if !strings.Contains(st.in.stateChange, tt.wantChange) {
				t.Errorf("checkState(%s) stateChange = %q, want %q", tt.name, st.in.stateChange, tt.wantChange)
			}
			if strings.Join(st.interrupted, ",") != strings.Join(tt.interrupted, ",") {
				t.Errorf("checkState(%s) interrupted = %v, want %v", tt.name, st.interrupted, tt.interrupted)
			}
		})
	}
}

// historyOf opens a history in dir holding runs of acme/dev/app, oldest
// first, each begun and ended an hour ago.
func historyOf(tb testing.TB, dir string, runs ...history.Run) *history.Store {
	tb.Helper()
	ctx := context.Background()
	store, err := history.Open(ctx, filepath.Join(dir, "history.db"), history.WithTimeout(time.Second))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { store.Close() })
	for _, run := range runs {
		run.Client, run.Env, run.Stack, run.StartedAt = "acme", "dev", "app", time.Now().Add(-time.Hour)
		begun, err := store.Begin(ctx, run)
		if err != nil {
			tb.Fatal(err)
		}
		run.Number = begun.Number
		if err := store.Record(ctx, run); err != nil {
			tb.Fatal(err)
		}
	}
	return store
}

// BenchmarkReadHistoryBeforeBegin is what a run of a stack applied, then
// drift-checked, reads of the history before it begins, in the reconcile
// loop: the retry wait, the last good apply and the state check.
func BenchmarkReadHistoryBeforeBegin(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	store := historyOf(b, dir, history.Run{Operation: history.OperationApply, Result: history.ResultApplied},
		history.Run{Operation: history.OperationPlan, Result: history.ResultNoChanges})
	r := New(Config{StateDir: dir, History: store, RetryWait: true})
	req := Request{Operation: history.OperationApply, Client: "acme", Env: "dev", Stack: &environment.Stack{Name: "app", DisableDriftDetection: true}}
	b.ReportAllocs()
	for b.Loop() {
		st := r.newState(req, nil)
		for _, s := range []step{r.waitToRetry, r.readLastGood, r.checkState} {
			if err := s(ctx, st); err != nil {
				b.Fatal(err)
			}
		}
	}
}
