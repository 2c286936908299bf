// Package recovered turns a panic into an error that keeps the stack it
// happened on: one environment's load, one namespace's reconcile or one
// stack's run that panics is an error of that environment, namespace or
// stack, and the rest go on. Whoever logs the error logs the stack with
// it (Log), so that the bug can be found.
package recovered
