package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
)

// RetryError is the end of a run, in the reconcile loop, of a stack whose
// last run failed less than its retry interval ago: it is failed still,
// and the first pass after the interval runs it again.
type RetryError struct {
	Stack string
	// Last is the run that failed; Interval the stack's retry interval,
	// and Left how much of it is left.
	Last     history.Run
	Interval time.Duration
	Left     time.Duration
	// Explicit is true when the interval is the stack's own
	// spec.retryInterval.
	Explicit bool
}

func (e *RetryError) Error() string {
	from := "the default retry interval"
	if e.Explicit {
		from = "spec.retryInterval"
	}
	return fmt.Sprintf("run #%d failed; retried %s after it (%s), in %s: %s",
		e.Last.Number, e.Interval, from, round(e.Left), e.Last.Error)
}

// waitToRetry ends, in the reconcile loop (Config.RetryWait), the run of a
// stack whose last run failed less than its spec.retryInterval
// (environment.DefaultRetryInterval when unset) ago. A one-shot plan or
// apply runs it at once.
func (r *Runner) waitToRetry(ctx context.Context, st *runState) error {
	if !r.cfg.RetryWait || st.adopted {
		return nil
	}
	last, ok, err := r.lastRunOf(ctx, st)
	if err != nil {
		return fmt.Errorf("run stack %s: %w", st.req.Stack.Name, err)
	}
	if !ok || last.Result != history.ResultFailed {
		return nil
	}
	interval, explicit := st.req.Stack.RetryInterval, true
	if interval <= 0 {
		interval, explicit = environment.DefaultRetryInterval, false
	}
	left := last.StartedAt.Add(last.Duration).Add(interval).Sub(r.cfg.Now())
	if left <= 0 {
		return nil
	}
	return &RetryError{Stack: st.req.Stack.Name, Last: last, Interval: interval, Left: left, Explicit: explicit}
}

// retryResult is the unrecorded result of a stack that waits to be
// retried: failed, with the error of the run that failed.
func (st *runState) retryResult(e *RetryError) Result {
	st.log.Warn(e.Error())
	st.message = e.Error()
	st.run = history.Run{
		Client: st.req.Client, Env: st.req.Env, Stack: st.req.Stack.Name,
		Operation: st.req.Operation, Result: history.ResultFailed, Error: e.Last.Error,
		ToVersion: e.Last.ToVersion, Digest: e.Last.Digest,
	}
	return st.result()
}

// WaitToRetry runs the step of Run that ends, in the reconcile loop
// (Config.RetryWait), the run of a stack whose last run failed less than
// its retry interval ago, and returns what Run would return then: its
// result and the *RetryError, with its warning logged; nil when Run
// would go on. strata controller asks it before it starts a runner Job,
// whose pod does not wait to retry: a failure is retried no sooner than
// its spec.retryInterval, whichever executor ran it.
func (r *Runner) WaitToRetry(ctx context.Context, req Request) (Result, *RetryError) {
	if req.Stack.Suspend || req.Stack.Frozen != "" || req.Removal != nil {
		return Result{}, nil
	}
	st := r.newState(req, nil)
	var retry *RetryError
	if err := r.waitToRetry(ctx, st); !errors.As(err, &retry) {
		return Result{}, nil
	}
	return st.retryResult(retry), retry
}
