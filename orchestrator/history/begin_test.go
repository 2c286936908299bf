package history

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestBeginNumbersPerStack(t *testing.T) {
	s, _ := open(t)
	steps := []struct {
		client, env, stack string
		want               int
	}{
		{"acme", "dev", "network", 1},
		{"acme", "dev", "network", 2},
		{"acme", "dev", "api", 1},
		{"acme", "prod", "network", 1},
		{"beta", "dev", "network", 1},
		{"acme", "dev", "network", 3},
		{"acme", "dev", "api", 2},
	}
	for _, st := range steps {
		r := begin(t, s, st.client, st.env, st.stack)
		if r.Number != st.want {
			t.Errorf("Begin(%s/%s/%s) Number = %d, want %d", st.client, st.env, st.stack, r.Number, st.want)
		}
		if r.Result != ResultRunning {
			t.Errorf("Begin(%s/%s/%s) Result = %q, want %q", st.client, st.env, st.stack, r.Result, ResultRunning)
		}
		if r.StartedAt.IsZero() {
			t.Errorf("Begin(%s/%s/%s) StartedAt is zero, want now", st.client, st.env, st.stack)
		}
	}
}

func TestBeginStores(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	started := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	in := Run{Client: "acme", Env: "dev", Stack: "network", Operation: OperationPlan, Cause: "install",
		ToVersion: "0.1.0", Result: ResultApplied, StartedAt: started}
	r, err := s.Begin(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	want := in
	want.Number = 1
	want.Result = ResultRunning // whatever was passed
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("Begin() mismatch (-want +got):\n%s", diff)
	}
	got, _, err := s.Last(ctx, "acme", "dev", "network")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Last() after Begin mismatch (-want +got):\n%s", diff)
	}
}

func TestBeginConcurrent(t *testing.T) {
	s, _ := open(t)
	const n = 50
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		numbers = map[string][]bool{}
	)
	for i := range n {
		for _, stack := range []string{"network", "api"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := s.Begin(context.Background(), Run{Client: "acme", Env: "dev", Stack: stack, Error: fmt.Sprint(i)})
				if err != nil {
					t.Errorf("Begin(%s) = %v, want nil", stack, err)
					return
				}
				mu.Lock()
				defer mu.Unlock()
				if numbers[stack] == nil {
					numbers[stack] = make([]bool, n+1)
				}
				if r.Number < 1 || r.Number > n || numbers[stack][r.Number] {
					t.Errorf("Begin(%s) Number = %d, want a new number in 1..%d", stack, r.Number, n)
					return
				}
				numbers[stack][r.Number] = true
			}()
		}
	}
	wg.Wait()
	for _, stack := range []string{"network", "api"} {
		runs, err := s.List(context.Background(), "acme", "dev", stack, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) != n {
			t.Errorf("List(%s) has %d runs, want %d", stack, len(runs), n)
		}
	}
}

func TestBeginErrors(t *testing.T) {
	s, _ := open(t)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		run  Run
		want string
	}{
		{"no stack", context.Background(), Run{Client: "acme", Env: "dev"},
			"begin run acme/dev/: client, env and stack are required"},
		{"no client", context.Background(), Run{Env: "dev", Stack: "network"},
			"begin run /dev/network: client, env and stack are required"},
		{"cancelled", cancelled, Run{Client: "acme", Env: "dev", Stack: "network"},
			"begin run acme/dev/network: context canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Begin(tt.ctx, tt.run)
			if err == nil || err.Error() != tt.want {
				t.Errorf("Begin(%+v) = %v, want %q", tt.run, err, tt.want)
			}
		})
	}
}
