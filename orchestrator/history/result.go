package history

// Operation is what a run does with its plan.
type Operation string

// Operations.
const (
	// OperationPlan plans and reports, and changes nothing.
	OperationPlan Operation = "plan"
	// OperationApply plans, then applies the plan when it is allowed.
	OperationApply Operation = "apply"
	// OperationUnlock is a person's release of a stuck state lock
	// (`strata unlock`); its run records who did it, and why.
	OperationUnlock Operation = "unlock"
)

// Result is how a run of a stack ended. It is recorded in history, shown
// in reports, counted in metrics and read by /readyz, always as the
// string of one of the constants below.
type Result string

// Results of a run.
const (
	ResultRunning     Result = "running"     // begun and not yet recorded
	ResultApplied     Result = "applied"     // a plan with changes was applied
	ResultPlanned     Result = "planned"     // planned only (a plan operation)
	ResultNoChanges   Result = "no-changes"  // planned, and the plan had no changes
	ResultUnchanged   Result = "unchanged"   // no input changed: neither planned nor applied
	ResultFailed      Result = "failed"      // an error; see Error
	ResultSkipped     Result = "skipped"     // a dependency did not succeed
	ResultBlocked     Result = "blocked"     // a problem in its Kustomization's chain holds it back: not run
	ResultWaiting     Result = "waiting"     // an upstream contract is missing
	ResultHeld        Result = "held"        // the plan waits for approval
	ResultInterrupted Result = "interrupted" // the process stopped during the run
	ResultUnlocked    Result = "unlocked"    // a person released the state lock (strata unlock)
	ResultSuspended   Result = "suspended"   // spec.suspend: neither planned nor applied
	ResultOrphaned    Result = "orphaned"    // left the repository; no longer managed, its resources kept
)

// Results are the results a stack can end a reconcile with, in the order
// reports and metrics list them: interrupted when strata was stopped
// during the run. Running is only ever seen in history.
var Results = []Result{
	ResultApplied, ResultPlanned, ResultNoChanges, ResultUnchanged, ResultOrphaned,
	ResultHeld, ResultWaiting, ResultSuspended, ResultSkipped, ResultBlocked, ResultFailed, ResultInterrupted,
}

// Converged reports whether the stack is where the repository says, with
// nothing pending: applied, planned (for a plan, planning is all there is
// to do), no-changes or unchanged, or orphaned (it left the repository,
// and strata no longer manages it). Nothing waits for a person, for a
// failure to be fixed, for an upstream or for a suspended stack.
func (r Result) Converged() bool {
	switch r {
	case ResultApplied, ResultPlanned, ResultNoChanges, ResultUnchanged, ResultOrphaned:
		return true
	}
	return false
}

// Ready reports whether the stack is where it should be or waits by
// design: converged, waiting on an upstream contract that the next
// reconcile reads once it is published (or on a suspended stack), or
// suspended by spec.suspend. A held plan is not ready: it needs a person.
// This is what /readyz and strata_ready accept.
func (r Result) Ready() bool {
	return r.Converged() || r == ResultWaiting || r == ResultSuspended
}

// Failed reports whether the run went wrong: it failed, it was skipped
// because a dependency did not succeed, a problem in the repository
// blocked it, or the process stopped during it.
func (r Result) Failed() bool {
	switch r {
	case ResultFailed, ResultSkipped, ResultBlocked, ResultInterrupted:
		return true
	}
	return false
}

// InterruptedError is the Error of a run that a stopped process left
// "running", once the next writer marked it interrupted.
const InterruptedError = "the strata process stopped before the run finished"

// MarkInterrupted returns r, left "running" by a process that stopped, as
// interrupted: its Error says so unless it says why already.
func (r Run) MarkInterrupted() Run {
	r.Result = ResultInterrupted
	if r.Error == "" {
		r.Error = InterruptedError
	}
	return r
}
