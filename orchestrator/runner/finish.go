package runner

import (
	"context"
	"errors"
	"fmt"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/scheduler"
	"github.com/strata-iac/strata/orchestrator/tofu"
)

// The run's result is decided here, once, and recorded here: by notBegun
// for a run that never began, by finish for one that did, and by
// unrecorded for one that could not even be recorded. notBegun and
// finish give the scheduler's runner back first (scheduler.Release): the
// runner limit bounds tofu processes, and none runs while a run is
// recorded.

// notBegun ends a run that did not begin: unchanged when a step found
// nothing to do; otherwise waiting for an upstream contract, or failed,
// and recorded as such though it never got as far as tofu.
func (r *Runner) notBegun(ctx context.Context, st *runState, err error) (Result, error) {
	// No tofu process runs past here: the next stack takes the runner
	// while this one is recorded.
	scheduler.Release(ctx)
	if err == nil {
		return st.result(), nil
	}
	var suspended *SuspendedError
	if errors.As(err, &suspended) {
		return st.suspendedResult(suspended), err
	}
	var retry *RetryError
	if errors.As(err, &retry) {
		return st.retryResult(retry), err
	}
	var waiting *WaitingError
	if errors.As(err, &waiting) {
		st.log.Info(waiting.Error())
		st.message = waiting.Error()
		// Still waiting for the same contract: the run that said so first
		// stands, so that a loop does not add a run every pass. The head
		// says whether; the run itself is read only then.
		if h, herr := r.headOf(ctx, st); herr == nil && h.Last.Result == history.ResultWaiting && h.Last.Error == waiting.Error() {
			if last, ok, lerr := r.cfg.History.Last(ctx, st.req.Client, st.req.Env, st.req.Stack.Name); lerr == nil && ok && last.Number == h.Last.Number {
				st.run = last
				return st.result(), err
			}
		}
		run, rerr := r.recordOnly(ctx, st, history.ResultWaiting, waiting.Error())
		st.run = run
		return st.result(), errors.Join(err, rerr)
	}
	st.log.Error(err.Error())
	st.message = err.Error()
	run, rerr := r.recordOnly(ctx, st, history.ResultFailed, err.Error())
	st.run = run
	return st.result(), errors.Join(err, rerr)
}

// unrecorded ends a run that failed before anything could be recorded.
func (r *Runner) unrecorded(st *runState, err error) (Result, error) {
	st.log.Error(err.Error())
	st.message = err.Error()
	st.run.Result, st.run.Error = history.ResultFailed, err.Error()
	return st.result(), err
}

// recordOnly records a run that did not get as far as tofu. The run it
// returns has the result even when it could not be recorded.
func (r *Runner) recordOnly(ctx context.Context, st *runState, result history.Result, msg string) (history.Run, error) {
	req := st.req
	run := history.Run{
		Client: req.Client, Env: req.Env, Stack: req.Stack.Name, Namespace: req.Stack.Namespace,
		Operation: req.Operation,
		ToVersion: req.Artifact.Version,
		Digest:    req.Artifact.Digest,
		StartedAt: st.started.UTC(),
	}
	fail := func(err error) (history.Run, error) {
		run.Result, run.Error = result, msg
		return run, fmt.Errorf("record stack %s: %w", req.Stack.Name, err)
	}
	run, err := r.cfg.History.Begin(ctx, run)
	if err != nil {
		return fail(err)
	}
	run.Result = result
	run.Error = msg
	run.Duration = r.cfg.Now().Sub(st.started)
	if err := r.cfg.History.Record(context.WithoutCancel(ctx), run); err != nil {
		return fail(err)
	}
	return run, nil
}

// finish ends a run that began: it says why a run that failed failed,
// logs the run's last line and records it. The record is written even
// when the run was interrupted: a cancelled context must not lose
// history.
func (r *Runner) finish(ctx context.Context, st *runState, err error) (Result, error) {
	// The run's last tofu process has exited: the next stack takes the
	// runner while this one is recorded.
	scheduler.Release(ctx)
	r.protectState(st)
	r.lockHeld(ctx, st, err)
	err = explainLock(err)
	switch {
	case err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		err = fmt.Errorf("run timed out after %s: %w", r.cfg.Timeout, err)
	case err != nil && errors.Is(ctx.Err(), context.Canceled):
		err = fmt.Errorf("run interrupted: strata was stopped, and tofu with it, gracefully: %w", err)
	}
	interrupted := err != nil && errors.Is(ctx.Err(), context.Canceled)
	run := &st.run
	run.Duration = r.cfg.Now().Sub(st.started)
	var held *HeldError
	var lost *lostError
	switch {
	case errors.As(err, &held):
		run.Result = history.ResultHeld
		run.Error = held.Error()
		st.message = held.Error()
		st.log.Warn(fmt.Sprintf("run #%d finished in %s: %s", run.Number, round(run.Duration), held.Error()))
	case errors.As(err, &lost):
		run.Result, run.Cause, run.Interrupted = history.ResultInterrupted, CauseInterrupted, lost.lost
		run.Error = err.Error()
		st.message = err.Error()
		st.log.Error(fmt.Sprintf("run #%d interrupted after %s: %s", run.Number, round(run.Duration), err.Error()))
	case interrupted:
		run.Result = history.ResultInterrupted
		run.Error = err.Error()
		st.message = err.Error()
		st.log.Warn(fmt.Sprintf("run #%d interrupted after %s: %s", run.Number, round(run.Duration), err.Error()))
	case err != nil:
		run.Interrupted = nil
		run.Result = history.ResultFailed
		run.Error = err.Error()
		st.message = err.Error()
		st.log.Error(fmt.Sprintf("run #%d failed after %s: %s", run.Number, round(run.Duration), err.Error()))
	default:
		run.Interrupted = nil
		st.log.Info(fmt.Sprintf("run #%d finished in %s: %s", run.Number, round(run.Duration), st.message))
	}
	if rerr := r.cfg.History.Record(context.WithoutCancel(ctx), *run); rerr != nil {
		err = errors.Join(err, fmt.Errorf("record run of stack %s: %w", run.Stack, rerr))
	} else if st.keepRecord {
		// The next run adopts the record only to release the state lock
		// the killed tofu held.
		if merr := tofu.MarkRecorded(st.ws.dir); merr != nil {
			st.log.Warn(merr.Error())
		}
	} else if cerr := r.clearRecord(*run); cerr != nil {
		// The apply's record stays; the next run adopts what it says.
		st.log.Warn(cerr.Error())
	}
	return st.result(), err
}
