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
	// spec.retryInterval; Failures, when the stack backs off
	// (spec.retryStrategy: ExponentialBackoff), how many runs failed in
	// a row.
	Explicit bool
	Failures int
}

func (e *RetryError) Error() string {
	from := "the default retry interval"
	if e.Explicit {
		from = "spec.retryInterval"
	}
	if e.Failures > 0 {
		from += fmt.Sprintf(", doubled for each of %d failures in a row (spec.retryStrategy: ExponentialBackoff)", e.Failures)
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
	s := st.req.Stack
	interval, explicit := s.RetryInterval, true
	if interval <= 0 {
		interval, explicit = environment.DefaultRetryInterval, false
	}
	failures := 0
	if s.RetryBackoff {
		if failures, err = r.failuresInARow(ctx, st); err != nil {
			return fmt.Errorf("run stack %s: %w", s.Name, err)
		}
		interval = backoff(interval, s.MaxRetryInterval, failures)
	}
	left := last.StartedAt.Add(last.Duration).Add(interval).Sub(r.cfg.Now())
	if left <= 0 {
		return nil
	}
	return &RetryError{Stack: st.req.Stack.Name, Last: last, Interval: interval, Left: left, Explicit: explicit, Failures: failures}
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

// maxBackoffRuns bounds the runs failuresInARow reads: 2^20 retry
// intervals pass any cap.
const maxBackoffRuns = 20

// failuresInARow counts the stack's failed runs since its last run that
// did not fail, newest first, at most maxBackoffRuns.
func (r *Runner) failuresInARow(ctx context.Context, st *runState) (int, error) {
	runs, err := r.cfg.History.List(ctx, st.req.Client, st.req.Env, st.req.Stack.Name, maxBackoffRuns)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, run := range runs {
		if run.Operation == history.OperationUnlock {
			continue
		}
		if run.Result != history.ResultFailed {
			break
		}
		n++
	}
	return n, nil
}

// backoff is the Tofu Controller's ExponentialBackoff: interval doubled
// for each of n failures in a row, at most maxInterval (a day when 0).
func backoff(interval, maxInterval time.Duration, n int) time.Duration {
	if maxInterval <= 0 {
		maxInterval = 24 * time.Hour
	}
	for range n {
		if interval >= maxInterval {
			break
		}
		interval *= 2
	}
	return min(interval, maxInterval)
}
