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

func (e *SkipError) Error() string {
	return fmt.Sprintf("skipped because dependency %q did not succeed: %v", e.Dependency, e.Cause)
}

func (e *SkipError) Unwrap() error { return e.Cause }
