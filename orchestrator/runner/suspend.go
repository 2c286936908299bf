package runner

import (
	"context"
	"fmt"

	"github.com/strata-iac/strata/orchestrator/history"
)

// SuspendedError is the end of a run of a stack whose spec.suspend is
// true: it is neither planned nor applied, and its dependents wait for it
// as for a stack that is not ready.
type SuspendedError struct {
	Stack, File string
}

func (e *SuspendedError) Error() string {
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
