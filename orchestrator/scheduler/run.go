package scheduler

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/strata-iac/strata/internal/recovered"
)

// DefaultLimit is how many tasks run at once when Run is given no limit:
// ten tofu processes.
const DefaultLimit = 10

// Task is one unit of work and the tasks it waits for.
type Task struct {
	// Name identifies the task; unique among the tasks of one Run.
	Name string
	// Deps names the tasks that must succeed before this one starts.
	Deps []string
}

// Func runs the named task. ctx is cancelled when Run's ctx is.
type Func func(ctx context.Context, name string) error

// Run runs every task with fn, each once all its dependencies returned nil,
// with at most limit running at once (DefaultLimit when limit <= 0). When
// the limit forces a choice, the critical path goes first: of the tasks
// ready to start, the one with the longest chain of dependents below it
// starts first, and of those the first by name. A deep chain is then not
// held up behind a wide layer of tasks that nothing waits for.
//
// It returns every task's result, keyed by name: nil, fn's error, or
// without fn being called:
//   - a *SkipError when a dependency did not succeed;
//   - an error wrapping ctx.Err() when ctx was cancelled before the task
//     started (tasks already running see the cancelled ctx and finish);
//   - an error when the task is listed twice, depends on a task that is
//     not given, or is on a dependency cycle.
//
// A panic in fn is recovered and becomes that task's error. Run returns
// when every started fn has returned.
func Run(ctx context.Context, tasks []Task, limit int, fn Func) map[string]error {
	return RunShared(ctx, tasks, limit, nil, fn)
}

// RunShared is Run with a second limit, shared with other Runs going on
// side by side: a task starts only when this Run is under its own limit
// and it got a runner from the pool. Runs with tasks ready take runners in
// turn (see Pool). A nil pool shares nothing.
func RunShared(ctx context.Context, tasks []Task, limit int, pool *Pool, fn Func) map[string]error {
	if limit <= 0 {
		limit = DefaultLimit
	}
	s := newRun(tasks)
	s.loop(ctx, limit, pool, fn)
	return s.results
}

// state is one task's progress.
type state int

const (
	waiting state = iota // for dependencies to finish
	ready                // to start
	running
	done
)

// run is the bookkeeping of one Run. Only the goroutine that called Run
// touches it; tasks report back over a channel.
type run struct {
	tasks      []Task
	index      map[string]int
	state      []state
	pending    []int   // dependencies not yet done
	dependents [][]int // by index
	// chain is the length of the longest chain of dependents below each
	// task: 0 for a task nothing depends on.
	chain     []int
	ready     []int // by priority: longest chain first, then by name
	results   map[string]error
	remaining int // tasks not done
}

type finished struct {
	task int
	err  error
	// freed is set when the task gives its runner back only now.
	freed bool
}

func newRun(tasks []Task) *run {
	s := &run{
		tasks:      tasks,
		index:      make(map[string]int, len(tasks)),
		state:      make([]state, len(tasks)),
		pending:    make([]int, len(tasks)),
		dependents: make([][]int, len(tasks)),
		results:    make(map[string]error, len(tasks)),
		remaining:  len(tasks),
	}
	bad := make(map[int]error)
	for i, t := range tasks {
		if first, dup := s.index[t.Name]; dup {
			// The first keeps the name and fails; the others are dropped.
			s.state[i] = done
			s.remaining--
			bad[first] = errors.New("listed more than once")
			continue
		}
		s.index[t.Name] = i
	}
	for i, t := range tasks {
		if s.state[i] == done {
			continue
		}
		for _, d := range t.Deps {
			j, ok := s.index[d]
			if !ok {
				if bad[i] == nil {
					bad[i] = fmt.Errorf("depends on unknown task %q", d)
				}
				continue
			}
			s.pending[i]++
			s.dependents[j] = append(s.dependents[j], i)
		}
	}
	for i, err := range s.cycles() {
		if bad[i] == nil {
			bad[i] = err
		}
	}
	// Invalid tasks are done before anything starts; then their dependents
	// are settled, which skips them.
	for i := range tasks {
		if err, ok := bad[i]; ok {
			s.record(i, err)
		}
	}
	for i := range tasks {
		if _, ok := bad[i]; ok {
			s.settle(i)
		}
	}
	s.chain = s.chains()
	for i := range tasks {
		if s.state[i] == waiting && s.pending[i] == 0 {
			s.makeReady(i)
		}
	}
	return s
}

// chains measures, for every task, the longest chain of dependents below
// it. A task on a cycle is settled before anything starts, so the walk
// only guards against looping on one.
func (s *run) chains() []int {
	chain := make([]int, len(s.tasks))
	const unseen, visiting, measured = 0, 1, 2
	mark := make([]int, len(s.tasks))
	var walk func(i int) int
	walk = func(i int) int {
		switch mark[i] {
		case measured:
			return chain[i]
		case visiting:
			return 0
		}
		mark[i] = visiting
		longest := 0
		for _, d := range s.dependents[i] {
			longest = max(longest, 1+walk(d))
		}
		mark[i], chain[i] = measured, longest
		return longest
	}
	for i := range s.tasks {
		walk(i)
	}
	return chain
}

// before orders ready tasks: the longer chain of dependents first, then
// by name.
func (s *run) before(i, j int) int {
	if c := cmp.Compare(s.chain[j], s.chain[i]); c != 0 {
		return c
	}
	return strings.Compare(s.tasks[i].Name, s.tasks[j].Name)
}

// cycles finds the tasks that can never start because they are on a
// dependency cycle, and says which cycle. Tasks merely downstream of a
// cycle are not included: they are skipped once the cycle's tasks fail.
func (s *run) cycles() map[int]error {
	// Peel off everything that can finish (Kahn); what is left is on a
	// cycle or downstream of one.
	pending := slices.Clone(s.pending)
	var queue []int
	for i := range s.tasks {
		if s.state[i] != done && pending[i] == 0 {
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, d := range s.dependents[i] {
			pending[d]--
			if pending[d] == 0 {
				queue = append(queue, d)
			}
		}
	}
	stuck := make(map[int]bool)
	for i := range s.tasks {
		if s.state[i] != done && pending[i] > 0 {
			stuck[i] = true
		}
	}
	// A stuck task is on a cycle when it can reach itself through stuck
	// dependencies.
	out := make(map[int]error)
	for i := range s.tasks {
		if !stuck[i] {
			continue
		}
		if path := s.pathTo(i, i, stuck); path != nil {
			names := make([]string, len(path))
			for k, j := range path {
				names[k] = s.tasks[j].Name
			}
			out[i] = fmt.Errorf("on a dependency cycle: %s", strings.Join(names, " -> "))
		}
	}
	return out
}

// pathTo returns the shortest dependency path from task 'from' to task
// 'to' through tasks in 'within', as from -> … -> to, or nil.
func (s *run) pathTo(from, to int, within map[int]bool) []int {
	parent := map[int]int{}
	queue := []int{from}
	seen := map[int]bool{}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, name := range s.tasks[v].Deps {
			w, ok := s.index[name]
			if !ok || !within[w] {
				continue
			}
			if w == to {
				path := []int{to}
				for u := v; u != from; u = parent[u] {
					path = append(path, u)
				}
				path = append(path, from)
				slices.Reverse(path)
				return path
			}
			if !seen[w] {
				seen[w] = true
				parent[w] = v
				queue = append(queue, w)
			}
		}
	}
	return nil
}

func (s *run) makeReady(i int) {
	s.state[i] = ready
	at, _ := slices.BinarySearchFunc(s.ready, i, s.before)
	s.ready = slices.Insert(s.ready, at, i)
}

// finish records task i's result and settles its dependents.
func (s *run) finish(i int, err error) {
	s.record(i, err)
	s.settle(i)
}

// record marks task i done with its result.
func (s *run) record(i int, err error) {
	s.state[i] = done
	s.remaining--
	s.results[s.tasks[i].Name] = err
}

// settle updates the dependents of the finished task i: each one whose
// dependencies are now all done either becomes ready or, when one of them
// did not succeed, is skipped — which settles its own dependents in turn.
func (s *run) settle(i int) {
	for _, d := range s.dependents[i] {
		s.pending[d]--
		if s.pending[d] > 0 || s.state[d] != waiting {
			continue
		}
		if dep, cause := s.firstFailed(d); cause != nil {
			s.finish(d, &SkipError{Task: s.tasks[d].Name, Dependency: dep, Cause: cause})
			continue
		}
		s.makeReady(d)
	}
}

// firstFailed returns the first of task i's dependencies, in its order,
// whose result is not nil.
func (s *run) firstFailed(i int) (string, error) {
	for _, name := range s.tasks[i].Deps {
		if err := s.results[name]; err != nil {
			return name, err
		}
	}
	return "", nil
}

// loop starts ready tasks while there is room and collects their results
// until every task is done. With a pool, each start also takes a runner
// from it, returned when the task finishes.
func (s *run) loop(ctx context.Context, limit int, pool *Pool, fn Func) {
	results := make(chan finished)
	// freed receives a task's index when it gives its runner back: by
	// Release, else as it returns.
	freed := make(chan int)
	// inFlight counts the tasks holding a runner, unfinished those
	// started that have not returned.
	inFlight, unfinished := 0, 0
	cancelled := false
	// waitingFor is this Run's place in the pool's queue, while it waits
	// for a runner.
	var waitingFor *ticket
	defer func() {
		if waitingFor != nil {
			pool.withdraw(waitingFor)
		}
	}()
	for s.remaining > 0 {
		if !cancelled && ctx.Err() != nil {
			cancelled = true
			s.cancelWaiting(ctx.Err())
			if waitingFor != nil {
				pool.withdraw(waitingFor)
				waitingFor = nil
			}
		}
		for !cancelled && inFlight < limit && len(s.ready) > 0 {
			if pool != nil {
				if waitingFor == nil {
					waitingFor = pool.request()
				}
				select {
				case <-waitingFor.granted:
					waitingFor = nil
				default:
				}
				if waitingFor != nil {
					break // not this Run's turn yet
				}
			}
			i := s.ready[0]
			s.ready = s.ready[1:]
			s.state[i] = running
			inFlight++
			unfinished++
			go start(ctx, i, s.tasks[i].Name, fn, freed, results)
		}
		if unfinished == 0 && waitingFor == nil {
			// Nothing runs, so nothing will ever make a task ready: every
			// task is settled already. Guard against waiting forever all
			// the same.
			s.cancelWaiting(errors.New("no dependency can finish"))
			continue
		}
		done := ctx.Done() // nil for a ctx that is never cancelled
		if cancelled {
			done = nil // handled; wait for the running tasks only
		}
		var granted <-chan struct{}
		if waitingFor != nil {
			granted = waitingFor.granted
		}
		select {
		case <-freed:
			inFlight--
			if pool != nil {
				pool.release()
			}
		case r := <-results:
			unfinished--
			if r.freed {
				inFlight--
				if pool != nil {
					pool.release()
				}
			}
			s.finish(r.task, r.err)
		case <-granted:
			// Taken at the top of the loop.
		case <-done:
			// Handled at the top of the loop; running tasks still report.
		}
	}
}

// cancelWaiting finishes every task that has not started with an error
// wrapping cause.
func (s *run) cancelWaiting(cause error) {
	for i, st := range s.state {
		if st == waiting || st == ready {
			s.record(i, fmt.Errorf("not started: %w", cause))
		}
	}
	s.ready = nil
}

// start runs one task and reports its result, turning a panic into an
// error. The task's runner is given back once: on freed when the task
// calls Release, else with its result, so that the dependents it makes
// ready compete for the runner it frees.
func start(ctx context.Context, i int, name string, fn Func, freed chan<- int, results chan<- finished) {
	var once sync.Once
	release := func() { once.Do(func() { freed <- i }) }
	var err error
	defer func() {
		if p := recover(); p != nil {
			err = recovered.New(p)
		}
		last := false
		once.Do(func() { last = true })
		results <- finished{task: i, err: err, freed: last}
	}()
	err = fn(context.WithValue(ctx, releaseKey{}, release), name)
}

type releaseKey struct{}

// Release gives back the runner that the task whose ctx this is holds,
// before the task returns: a task calls it once the rest of its work is
// not what the limit bounds (for a stack, once its last tofu process has
// exited, while its run is recorded), so that the next ready task starts
// at once. The task's dependents still wait for it to return. A second
// call, or a ctx of no task, does nothing.
func Release(ctx context.Context) {
	if release, ok := ctx.Value(releaseKey{}).(func()); ok {
		release()
	}
}
