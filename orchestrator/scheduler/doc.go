// Package scheduler runs tasks in dependency order with a bounded number
// running at once.
//
// A task starts as soon as every task it depends on has succeeded.
// Independent tasks run in parallel, up to a limit. When the limit forces a
// choice, the critical path goes first: the ready task with the longest
// chain of dependents below it, ties by name. When a task fails, the
// tasks that depend on it — directly or through others — are skipped with
// a SkipError that names the dependency, while unrelated tasks go on.
// Several Runs going on side by side can share one limit, a Pool, whose
// runners they take in turn. A task that has work left that needs no
// runner gives its runner back early (Release), and the next ready task
// starts then. The
// package knows nothing of stacks: the orchestrator passes names in graph
// order and a function that runs one.
package scheduler
