package scheduler

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestRelease: with a limit of one, a task that gives its runner back
// lets the next ready task start while it still works, and its dependent
// still waits for it to return; with or without a pool.
func TestRelease(t *testing.T) {
	for _, pooled := range []bool{false, true} {
		t.Run(map[bool]string{false: "own limit", true: "shared pool"}[pooled], func(t *testing.T) {
			tasks := []Task{{Name: "a"}, {Name: "b"}, {Name: "c", Deps: []string{"a"}}}
			var pool *Pool
			if pooled {
				pool = NewPool(1)
			}
			bStarted, aReturning := make(chan struct{}), make(chan struct{})
			var mu sync.Mutex
			var events []string
			note := func(e string) {
				mu.Lock()
				defer mu.Unlock()
				events = append(events, e)
			}
			fn := func(ctx context.Context, name string) error {
				note(name + " started")
				switch name {
				case "a":
					Release(ctx)
					Release(ctx) // a second call does nothing
					select {
					case <-bStarted:
					case <-time.After(time.Minute):
						return errors.New("b never started while a held no runner")
					}
					note("a returning")
					close(aReturning)
				case "b":
					close(bStarted)
					<-aReturning
				}
				return nil
			}
			results := RunShared(context.Background(), tasks, 1, pool, fn)
			if diff := cmp.Diff(map[string]error{"a": nil, "b": nil, "c": nil}, results, cmp.Comparer(func(x, y error) bool { return errors.Is(x, y) || x == y })); diff != "" {
				t.Errorf("RunShared() results mismatch (-want +got):\n%s", diff)
			}
			want := []string{"a started", "b started", "a returning", "c started"}
			if diff := cmp.Diff(want, events); diff != "" {
				t.Errorf("RunShared() order mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReleaseOutsideTask: Release with a ctx of no task does nothing.
func TestReleaseOutsideTask(t *testing.T) {
	Release(context.Background())
}
