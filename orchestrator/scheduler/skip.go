package scheduler

import "fmt"

// SkipError is the result of a task that did not run because a dependency
// did not succeed. Cause is that dependency's error, which may itself be a
// SkipError; errors.Is and errors.As see through the chain to the root.
type SkipError struct {
	// Task is the task that was skipped.
	Task string
	// Dependency is the first of the task's dependencies, in the order the
	// task lists them, that did not succeed.
	Dependency string
	// Cause is the dependency's error.
	Cause error
}

// Error names the dependency and, through a chain of skips, the task where
// it started and why: `skipped because dependency "cluster" was skipped,
// after "network" did not succeed: tofu apply failed`.
func (e *SkipError) Error() string {
	root := e
	for {
		next, ok := root.Cause.(*SkipError)
		if !ok {
			break
		}
		root = next
	}
	if root == e {
		return fmt.Sprintf("skipped because dependency %q did not succeed: %v", e.Dependency, e.Cause)
	}
	return fmt.Sprintf("skipped because dependency %q was skipped, after %q did not succeed: %v", e.Dependency, root.Dependency, root.Cause)
}

func (e *SkipError) Unwrap() error { return e.Cause }
