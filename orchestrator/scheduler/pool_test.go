package scheduler

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// poolState is how many runners are free and how many Runs wait.
func poolState(p *Pool) (free, waiting int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.free, len(p.waiting)
}

// waitUntil polls cond until it holds, a generous while.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10s for %s", what)
		}
	}
}

func independent(prefix string, n int) []Task {
	tasks := make([]Task, n)
	for i := range tasks {
		tasks[i] = Task{Name: fmt.Sprintf("%s%02d", prefix, i)}
	}
	return tasks
}

// Runs side by side never run more tasks together than their shared pool
// holds, and each still keeps to its own limit.
func TestRunSharedLimit(t *testing.T) {
	tests := []struct {
		pool, limit, runs, tasks int
	}{
		{pool: 1, limit: 10, runs: 3, tasks: 5},
		{pool: 2, limit: 10, runs: 3, tasks: 8},
		{pool: 4, limit: 1, runs: 2, tasks: 6},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("pool %d limit %d", tt.pool, tt.limit), func(t *testing.T) {
			pool := NewPool(tt.pool)
			var running, peak atomic.Int64
			perRun := make([]atomic.Int64, tt.runs)
			perRunPeak := make([]atomic.Int64, tt.runs)
			var wg sync.WaitGroup
			for r := range tt.runs {
				wg.Go(func() {
					results := RunShared(context.Background(), independent(fmt.Sprintf("r%d-", r), tt.tasks), tt.limit, pool, func(ctx context.Context, name string) error {
						peak.Store(max(peak.Load(), running.Add(1)))
						perRunPeak[r].Store(max(perRunPeak[r].Load(), perRun[r].Add(1)))
						time.Sleep(2 * time.Millisecond)
						perRun[r].Add(-1)
						running.Add(-1)
						return nil
					})
					for name, err := range results {
						if err != nil {
							t.Errorf("RunShared() task %s = %v, want nil", name, err)
						}
					}
				})
			}
			wg.Wait()
			if got := peak.Load(); got > int64(tt.pool) {
				t.Errorf("RunShared() ran %d tasks at once, want at most the pool's %d", got, tt.pool)
			}
			for r := range tt.runs {
				if got := perRunPeak[r].Load(); got > int64(tt.limit) {
					t.Errorf("RunShared() run %d ran %d tasks at once, want at most its limit %d", r, got, tt.limit)
				}
			}
			if free, waiting := poolState(pool); free != tt.pool || waiting != 0 {
				t.Errorf("pool after every run = %d free, %d waiting, want %d free, none waiting", free, waiting, tt.pool)
			}
		})
	}
}

// Runs with tasks ready take the pool's runners in turn: a Run with many
// tasks does not starve one that arrives later with a few.
func TestRunSharedTakesTurns(t *testing.T) {
	pool := NewPool(1)
	var mu sync.Mutex
	var started []string
	bothQueued := make(chan struct{})
	fn := func(ctx context.Context, name string) error {
		mu.Lock()
		started = append(started, name)
		mu.Unlock()
		if name == "a00" {
			<-bothQueued // a waits for its next runner, b for its first
		}
		return nil
	}
	var wg sync.WaitGroup
	wg.Go(func() { RunShared(context.Background(), independent("a", 6), 10, pool, fn) })
	waitUntil(t, "a to queue for its next runner", func() bool { _, w := poolState(pool); return w == 1 })
	wg.Go(func() { RunShared(context.Background(), independent("b", 3), 10, pool, fn) })
	waitUntil(t, "b to queue behind a", func() bool { _, w := poolState(pool); return w == 2 })
	close(bothQueued)
	wg.Wait()
	want := []string{"a00", "a01", "b00", "a02", "b01", "a03", "b02", "a04", "a05"}
	if diff := cmp.Diff(want, started); diff != "" {
		t.Errorf("RunShared() start order (-want +got):\n%s", diff)
	}
}

// A Run cancelled while it waits for a runner gives its place back: the
// tasks it did not start say so, and the pool is whole again.
func TestRunSharedCancelled(t *testing.T) {
	pool := NewPool(1)
	hold := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		RunShared(context.Background(), independent("a", 1), 10, pool, func(ctx context.Context, name string) error {
			<-hold
			return nil
		})
	})
	waitUntil(t, "a to take the runner", func() bool { f, _ := poolState(pool); return f == 0 })
	ctx, cancel := context.WithCancel(context.Background())
	var results map[string]error
	wg.Go(func() {
		results = RunShared(ctx, independent("b", 2), 10, pool, func(ctx context.Context, name string) error {
			t.Errorf("RunShared() started %s, want nothing started once cancelled", name)
			return nil
		})
	})
	waitUntil(t, "b to queue", func() bool { _, w := poolState(pool); return w == 1 })
	cancel()
	waitUntil(t, "b to leave the queue", func() bool { _, w := poolState(pool); return w == 0 })
	close(hold)
	wg.Wait()
	for _, name := range []string{"b00", "b01"} {
		if err := results[name]; !errors.Is(err, context.Canceled) {
			t.Errorf("RunShared() task %s = %v, want not started: context canceled", name, err)
		}
	}
	if free, waiting := poolState(pool); free != 1 || waiting != 0 {
		t.Errorf("pool after both runs = %d free, %d waiting, want 1 free, none waiting", free, waiting)
	}
}
