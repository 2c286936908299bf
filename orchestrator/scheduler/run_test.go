package scheduler

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/recovered"
)

// recorder is a Func that logs when each task starts and ends and fails
// the tasks it is told to.
type recorder struct {
	fail map[string]error
	seq  atomic.Int64

	mu     sync.Mutex
	starts map[string]int64
	ends   map[string]int64
	calls  []string
}

func newRecorder(fail map[string]error) *recorder {
	return &recorder{fail: fail, starts: map[string]int64{}, ends: map[string]int64{}}
}

func (r *recorder) fn(ctx context.Context, name string) error {
	r.mu.Lock()
	r.starts[name] = r.seq.Add(1)
	r.calls = append(r.calls, name)
	r.mu.Unlock()
	time.Sleep(time.Millisecond)
	r.mu.Lock()
	r.ends[name] = r.seq.Add(1)
	r.mu.Unlock()
	return r.fail[name]
}

func (r *recorder) called() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := append([]string(nil), r.calls...)
	sort.Strings(out)
	return out
}

// layered is account <- network <- {cluster, database} <- api, plus a
// monitoring task that depends on nothing.
func layered() []Task {
	return []Task{
		{Name: "account"},
		{Name: "network", Deps: []string{"account"}},
		{Name: "cluster", Deps: []string{"network"}},
		{Name: "database", Deps: []string{"network"}},
		{Name: "api", Deps: []string{"cluster", "database"}},
		{Name: "monitoring"},
	}
}

func TestRunOrder(t *testing.T) {
	for _, limit := range []int{1, 2, 0} {
		t.Run(fmt.Sprintf("limit %d", limit), func(t *testing.T) {
			r := newRecorder(nil)
			results := Run(context.Background(), layered(), limit, r.fn)
			want := map[string]error{"account": nil, "network": nil, "cluster": nil, "database": nil, "api": nil, "monitoring": nil}
			if diff := cmp.Diff(want, results, cmpErrors); diff != "" {
				t.Errorf("Run() results mismatch (-want +got):\n%s", diff)
			}
			for _, task := range layered() {
				for _, d := range task.Deps {
					if r.starts[task.Name] < r.ends[d] {
						t.Errorf("task %q started (%d) before its dependency %q ended (%d)", task.Name, r.starts[task.Name], d, r.ends[d])
					}
				}
			}
		})
	}
}

func TestRunLimitOneCriticalPathFirst(t *testing.T) {
	r := newRecorder(nil)
	Run(context.Background(), layered(), 1, r.fn)
	// monitoring is ready from the start, but nothing waits for it: the
	// chain account -> network -> cluster -> api goes first, then the
	// tasks with shorter chains below them, each tie by name.
	want := []string{"account", "network", "cluster", "database", "api", "monitoring"}
	if diff := cmp.Diff(want, r.calls); diff != "" {
		t.Errorf("Run(limit 1) call order mismatch (-want +got):\n%s", diff)
	}
}

// wideAndDeep is a wide layer of tasks nothing depends on, given first and
// named first, and a deep chain deep-1 <- deep-2 <- … <- deep-<depth>.
func wideAndDeep(wide, depth int) []Task {
	var tasks []Task
	for i := range wide {
		tasks = append(tasks, Task{Name: fmt.Sprintf("a-wide-%02d", i)})
	}
	for i := 1; i <= depth; i++ {
		t := Task{Name: fmt.Sprintf("deep-%d", i)}
		if i > 1 {
			t.Deps = []string{fmt.Sprintf("deep-%d", i-1)}
		}
		tasks = append(tasks, t)
	}
	return tasks
}

// A deep chain is not starved by a wide layer: whenever a runner is free
// and the chain's next task is ready, that task starts, so the chain gets
// through long before the wide layer does.
//
// The test does not race the clock. Each wide task holds its runner until
// the chain's last awaited task (deep-<depth-1>) has ended. A scheduler that
// gives a free runner to a wide task while the chain's next task is ready
// ends up with every runner held by a wide task, and the gate times out.
func TestRunDeepChainNotStarvedByWideLayer(t *testing.T) {
	const wide, depth = 20, 4
	chainLast := fmt.Sprintf("deep-%d", depth-1)
	tests := []struct {
		limit int
	}{{1}, {2}, {3}}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("limit %d", tt.limit), func(t *testing.T) {
			r := newRecorder(nil)
			released := make(chan struct{})
			var starved atomic.Bool
			var early atomic.Int64 // wide tasks started while the chain ran
			// One deadline for all gates, so that a starving scheduler
			// fails the test once, not once per wide task.
			gateCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			fn := func(ctx context.Context, name string) error {
				if strings.HasPrefix(name, "a-wide-") {
					select {
					case <-released:
					default:
						early.Add(1)
					}
					select {
					case <-released:
					case <-gateCtx.Done():
						starved.Store(true)
					}
				}
				err := r.fn(ctx, name)
				if name == chainLast {
					close(released)
				}
				return err
			}
			results := Run(context.Background(), wideAndDeep(wide, depth), tt.limit, fn)
			for name, err := range results {
				if err != nil {
					t.Errorf("Run() task %s = %v, want nil", name, err)
				}
			}
			if starved.Load() {
				t.Fatalf("Run(limit %d): every runner was held by a wide task while the chain waited (calls %q)", tt.limit, r.calls)
			}
			if first := r.calls[:tt.limit]; !slices.Contains(first, "deep-1") {
				t.Errorf("Run(limit %d) started %q first, want deep-1 (the longest chain) among them", tt.limit, first)
			}
			// At most limit-1 wide tasks hold a runner while the chain
			// runs; the rest start after it.
			if got, want := early.Load(), int64(tt.limit-1); got > want {
				t.Errorf("Run(limit %d): %d wide tasks started before %s ended, want at most %d", tt.limit, got, chainLast, want)
			}
		})
	}
}

func TestRunConcurrencyBound(t *testing.T) {
	tests := []struct {
		limit, tasks, want int
	}{
		{limit: 1, tasks: 5, want: 1},
		{limit: 3, tasks: 12, want: 3},
		{limit: 8, tasks: 40, want: 8},
		{limit: 0, tasks: 30, want: DefaultLimit},
		{limit: 5, tasks: 2, want: 2},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("limit %d tasks %d", tt.limit, tt.tasks), func(t *testing.T) {
			var tasks []Task
			for i := range tt.tasks {
				tasks = append(tasks, Task{Name: fmt.Sprintf("t%02d", i)})
			}
			var running, peak atomic.Int64
			full := make(chan struct{})
			var once sync.Once
			fn := func(ctx context.Context, name string) error {
				n := running.Add(1)
				defer running.Add(-1)
				for {
					p := peak.Load()
					if n <= p || peak.CompareAndSwap(p, n) {
						break
					}
				}
				// Hold every task until as many run as the bound allows,
				// so the peak must reach it.
				if n >= int64(tt.want) {
					once.Do(func() { close(full) })
				}
				select {
				case <-full:
				case <-time.After(5 * time.Second):
					return errors.New("the bound was never reached")
				}
				time.Sleep(time.Millisecond)
				return nil
			}
			results := Run(context.Background(), tasks, tt.limit, fn)
			for name, err := range results {
				if err != nil {
					t.Errorf("Run() result for %q = %v, want nil", name, err)
				}
			}
			if got := peak.Load(); got != int64(tt.want) {
				t.Errorf("Run(limit %d) peak concurrency = %d, want %d", tt.limit, got, tt.want)
			}
		})
	}
}

func TestRunFailureSkipsDependents(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name   string
		fail   map[string]error
		want   map[string]error
		called []string
	}{
		{
			name: "network fails",
			fail: map[string]error{"network": boom},
			want: map[string]error{
				"account":    nil,
				"network":    boom,
				"cluster":    &SkipError{Task: "cluster", Dependency: "network", Cause: boom},
				"database":   &SkipError{Task: "database", Dependency: "network", Cause: boom},
				"api":        &SkipError{Task: "api", Dependency: "cluster", Cause: &SkipError{Task: "cluster", Dependency: "network", Cause: boom}},
				"monitoring": nil,
			},
			called: []string{"account", "monitoring", "network"},
		},
		{
			name: "a sibling fails",
			fail: map[string]error{"database": boom},
			want: map[string]error{
				"account":    nil,
				"network":    nil,
				"cluster":    nil,
				"database":   boom,
				"api":        &SkipError{Task: "api", Dependency: "database", Cause: boom},
				"monitoring": nil,
			},
			called: []string{"account", "cluster", "database", "monitoring", "network"},
		},
		{
			name: "first failed dependency in the task's order",
			fail: map[string]error{"cluster": boom, "database": errors.New("also")},
			want: map[string]error{
				"account":    nil,
				"network":    nil,
				"cluster":    boom,
				"database":   errors.New("also"),
				"api":        &SkipError{Task: "api", Dependency: "cluster", Cause: boom},
				"monitoring": nil,
			},
			called: []string{"account", "cluster", "database", "monitoring", "network"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRecorder(tt.fail)
			got := Run(context.Background(), layered(), 4, r.fn)
			if diff := cmp.Diff(tt.want, got, cmpErrors); diff != "" {
				t.Errorf("Run() results mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.called, r.called()); diff != "" {
				t.Errorf("Run() called mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRunTransitiveSkipFindsRoot(t *testing.T) {
	root := &rootError{"apply failed"}
	fn := func(ctx context.Context, name string) error {
		if name == "account" {
			return fmt.Errorf("run account: %w", root)
		}
		return nil
	}
	results := Run(context.Background(), layered(), 2, fn)
	err := results["api"]
	var skip *SkipError
	if !errors.As(err, &skip) || skip.Task != "api" {
		t.Fatalf("Run() api = %v, want a *SkipError for api", err)
	}
	var r *rootError
	if !errors.As(err, &r) || r != root {
		t.Errorf("errors.As(%v, *rootError) = %v, want the root", err, r)
	}
}

func TestRunInvalidInput(t *testing.T) {
	tests := []struct {
		name   string
		tasks  []Task
		want   map[string]error
		called []string
	}{
		{
			name:  "unknown dependency",
			tasks: []Task{{Name: "a", Deps: []string{"ghost"}}, {Name: "b", Deps: []string{"a"}}, {Name: "c"}},
			want: map[string]error{
				"a": errors.New(`depends on unknown task "ghost"`),
				"b": &SkipError{Task: "b", Dependency: "a", Cause: errors.New(`depends on unknown task "ghost"`)},
				"c": nil,
			},
			called: []string{"c"},
		},
		{
			name: "cycle",
			tasks: []Task{
				{Name: "a", Deps: []string{"b"}}, {Name: "b", Deps: []string{"a"}},
				{Name: "c", Deps: []string{"a"}}, {Name: "d"},
			},
			want: map[string]error{
				"a": errors.New("on a dependency cycle: a -> b -> a"),
				"b": errors.New("on a dependency cycle: b -> a -> b"),
				"c": &SkipError{Task: "c", Dependency: "a", Cause: errors.New("on a dependency cycle: a -> b -> a")},
				"d": nil,
			},
			called: []string{"d"},
		},
		{
			name:  "self dependency",
			tasks: []Task{{Name: "a", Deps: []string{"a"}}},
			want:  map[string]error{"a": errors.New("on a dependency cycle: a -> a")},
		},
		{
			name:  "listed twice",
			tasks: []Task{{Name: "a"}, {Name: "b", Deps: []string{"a"}}, {Name: "a"}},
			want: map[string]error{
				"a": errors.New("listed more than once"),
				"b": &SkipError{Task: "b", Dependency: "a", Cause: errors.New("listed more than once")},
			},
		},
		{
			name:  "no tasks",
			tasks: nil,
			want:  map[string]error{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRecorder(nil)
			done := make(chan map[string]error)
			go func() { done <- Run(context.Background(), tt.tasks, 2, r.fn) }()
			select {
			case got := <-done:
				if diff := cmp.Diff(tt.want, got, cmpErrors); diff != "" {
					t.Errorf("Run() results mismatch (-want +got):\n%s", diff)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Run() did not return: deadlock")
			}
			if diff := cmp.Diff(tt.called, r.called()); diff != "" {
				t.Errorf("Run() called mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRunCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan struct{})
	var sawCancel atomic.Bool
	var calls sync.Map
	fn := func(ctx context.Context, name string) error {
		calls.Store(name, true)
		if name == "account" {
			close(started)
			<-ctx.Done()
			sawCancel.Store(true)
			return fmt.Errorf("interrupted: %w", ctx.Err())
		}
		return nil
	}
	tasks := []Task{{Name: "account"}, {Name: "network", Deps: []string{"account"}}, {Name: "later", Deps: []string{"account"}}}
	go func() {
		<-started
		cancel()
	}()
	results := Run(ctx, tasks, 1, fn)
	if !sawCancel.Load() {
		t.Error("the running task did not see the cancelled ctx")
	}
	for _, name := range []string{"account", "network", "later"} {
		if err := results[name]; !errors.Is(err, context.Canceled) {
			t.Errorf("Run() %q = %v, want an error wrapping context.Canceled", name, err)
		}
	}
	for _, name := range []string{"network", "later"} {
		if _, ok := calls.Load(name); ok {
			t.Errorf("fn called for %q after cancellation", name)
		}
	}
}

func TestRunAlreadyCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	results := Run(ctx, layered(), 3, func(context.Context, string) error {
		called = true
		return nil
	})
	if called {
		t.Error("fn called with a cancelled ctx")
	}
	for _, task := range layered() {
		if err := results[task.Name]; !errors.Is(err, context.Canceled) {
			t.Errorf("Run() %q = %v, want an error wrapping context.Canceled", task.Name, err)
		}
	}
}

func TestRunPanic(t *testing.T) {
	results := Run(context.Background(), []Task{{Name: "a"}, {Name: "b", Deps: []string{"a"}}}, 1,
		func(ctx context.Context, name string) error {
			if name == "a" {
				panic("oops")
			}
			return nil
		})
	panicked := errors.New("panicked: oops (a bug in strata: the log has its stack)")
	want := map[string]error{
		"a": panicked,
		"b": &SkipError{Task: "b", Dependency: "a", Cause: panicked},
	}
	if diff := cmp.Diff(want, results, cmpErrors); diff != "" {
		t.Errorf("Run() results mismatch (-want +got):\n%s", diff)
	}
	if stack := recovered.Stack(results["a"]); !strings.Contains(string(stack), "TestRunPanic") {
		t.Errorf("recovered.Stack(Run() a) = %q, want the stack of the task that panicked", stack)
	}
}

// cmpErrors compares errors by type and message.
var cmpErrors = cmp.Comparer(func(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var sa, sb *SkipError
	if errors.As(a, &sa) != errors.As(b, &sb) {
		return false
	}
	return a.Error() == b.Error()
})
