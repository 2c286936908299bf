package runner

import (
	"cmp"
	"context"
	"fmt"

	"github.com/strata-iac/strata/orchestrator/history"
)

// SuspendedError is the end of a run of a stack whose spec.suspend is
// true, or that Flux never created (Stack.Frozen): it is neither planned
// nor applied, and its dependents wait for it as for a stack that is not
// ready.
type SuspendedError struct {
	Stack, File string
	// Frozen is why Flux never created it; "" for spec.suspend.
	Frozen string
}

func (e *SuspendedError) Error() string {
	if e.Frozen != "" {
		return fmt.Sprintf("not created: %s, and it never ran, so the stack is neither planned nor applied until Flux applies it", e.Frozen)
	}
	return fmt.Sprintf("suspended: spec.suspend is true in %s, so the stack is neither planned nor applied; set it to false to resume", e.File)
}

// skipSuspended ends the run of a suspended stack before it reads
// anything. An apply that a stopped strata left in flight has been
// adopted first: its outcome is recorded whatever the spec says now.
func (r *Runner) skipSuspended(_ context.Context, st *runState) error {
	if !st.req.Stack.Suspend {
		return nil
	}
	return &SuspendedError{Stack: st.req.Stack.Name, File: st.req.Stack.File}
}

// keepFrozen ends the run of a stack that Flux applies no change to
// (Stack.Frozen): one that ran keeps what its last good run left, as the
// Terraform object in the cluster keeps its last applied spec, and is
// unchanged, so that its dependents go on; one that never ran is not
// created. With FrozenOnceRun, one that never ran runs, as Flux creates
// the object once.
func (r *Runner) keepFrozen(ctx context.Context, st *runState) error {
	s := st.req.Stack
	if s.Frozen == "" {
		return nil
	}
	h, err := r.headOf(ctx, st)
	if err != nil {
		return fmt.Errorf("run stack %s: %w", s.Name, err)
	}
	good := h.Good
	switch {
	case good.Number == 0 && s.FrozenOnceRun:
		return nil
	case good.Number == 0:
		return &SuspendedError{Stack: s.Name, File: s.File, Frozen: s.Frozen}
	}
	msg := fmt.Sprintf("kept as run #%d left it (version %s): %s, so the stack is neither planned nor applied", good.Number, cmp.Or(good.ToVersion, "-"), s.Frozen)
	st.log.Info(msg)
	st.message = msg
	st.run = history.Run{
		Client: st.req.Client, Env: st.req.Env, Stack: s.Name,
		Operation: good.Operation, Result: history.ResultUnchanged,
		ToVersion: good.ToVersion, Digest: good.Digest, Contract: good.Contract,
	}
	st.done = true
	return nil
}

// suspendedResult is the unrecorded result of a suspended stack: history
// keeps its last real run, so that a loop does not add a run every pass.
func (st *runState) suspendedResult(e *SuspendedError) Result {
	st.log.Info(e.Error())
	st.message = e.Error()
	st.run = history.Run{
		Client: st.req.Client, Env: st.req.Env, Stack: st.req.Stack.Name,
		Operation: st.req.Operation, Result: history.ResultSuspended,
	}
	return st.result()
}
