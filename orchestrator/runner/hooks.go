package runner

import (
	"context"

	"github.com/strata-iac/strata/orchestrator/environment"
)

// StackRunner runs one stack and records it; *Runner is the in-process
// one.
type StackRunner interface {
	Run(ctx context.Context, req Request) (Result, error)
}

// Hooks are what a driver of a reconcile changes in how its stacks run:
// strata controller hands its stacks to runner Jobs, with the key of the
// input hashes the cluster keeps, and destroys only what a deleted
// object asks for.
type Hooks struct {
	// HashKey keys the hashes of every run's inputs (the state
	// directory's key when nil).
	HashKey []byte
	// Runs makes what runs each stack from the runner's configuration
	// (New, tofu in this process, when nil).
	Runs func(Config) StackRunner
	// Removable says which stacks that left the environment are destroyed
	// (every one when nil); Deleted gives the code of one whose deleted
	// object still describes it (none when nil).
	Removable func(stack string) bool
	Deleted   func(stack string) *environment.Stack
}
