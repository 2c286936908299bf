package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/tofu"
)

// skipWhenUpToDate ends an apply, unchanged and unrecorded, when no input
// changed since the last good apply and no drift check is due.
func (r *Runner) skipWhenUpToDate(ctx context.Context, st *runState) error {
	up, why := r.upToDate(ctx, st)
	if !up {
		return nil
	}
	s := st.req.Stack
	switch {
	case s.Run.Force:
		st.log.Info(fmt.Sprintf("%s, but spec.force of Terraform/%s is true: planned all the same", why, s.Name))
		return nil
	case s.Run.PlanOnly:
		// A plan-only stack never applies, so there is no apply to be up
		// to date with: it is planned every time.
		return nil
	}
	st.log.Info("up to date: " + why)
	st.message = "up to date: " + why
	st.run = history.Run{
		Client: st.req.Client, Env: st.req.Env, Stack: st.req.Stack.Name,
		Operation: st.prev.Operation, Result: history.ResultUnchanged,
		ToVersion: st.prev.ToVersion, Digest: st.prev.Digest, Contract: st.prev.Contract,
	}
	st.done = true
	return nil
}

// upToDate reports whether an apply can skip init and plan: no input
// changed since the last good apply, no drift check is due (none ever is
// with spec.disableDriftDetection), the last run neither failed nor was
// interrupted, the state is as that apply left it, and the stack's
// contract is still there.
func (r *Runner) upToDate(ctx context.Context, st *runState) (bool, string) {
	req, in, prev, hasPrev := st.req, st.in, st.prev, st.hasPrev
	s := req.Stack
	interval := r.driftInterval(s)
	if req.Operation != history.OperationApply || !hasPrev || (interval <= 0 && !s.DisableDriftDetection) {
		return false, ""
	}
	// An adopted apply is planned again, and so is a stack whose last run
	// failed or whose state changed outside strata.
	if st.adopted || in.stateChange != "" {
		return false, ""
	}
	if _, known := in.against(prev); !known {
		st.log.Info(fmt.Sprintf("the hash key changed since run #%d (lost or replaced): no input can be compared, so the stack is planned", prev.Number))
		return false, ""
	}
	if !in.sameAs(prev) {
		return false, ""
	}
	if h := prev.HealthCheck; h != nil && !h.Passed() && len(s.HealthChecks) > 0 {
		st.log.Info(fmt.Sprintf("health check %s failed after run #%d: planned, to check again", h.Failed, prev.Number))
		return false, ""
	}
	age := r.cfg.Now().Sub(prev.StartedAt)
	if !s.DisableDriftDetection && age >= interval {
		return false, ""
	}
	if s.Produces != "" {
		if _, err := r.cfg.Contracts.Get(ctx, r.contractKey(s.Produces)); err != nil {
			return false, ""
		}
	}
	if s.DisableDriftDetection {
		return true, fmt.Sprintf("no input changed since run #%d; drift detection is disabled (spec.disableDriftDetection)", prev.Number)
	}
	return true, fmt.Sprintf("no input changed since run #%d; next drift check in %s", prev.Number, round(interval-age))
}

// driftInterval is how long the stack goes without a plan when none of
// its inputs changed: its own spec.interval, unless the command line's
// --drift-interval is given (Config.StackIntervals is false), which holds
// for every stack.
func (r *Runner) driftInterval(s *environment.Stack) time.Duration {
	if r.cfg.StackIntervals && s.Interval > 0 {
		return s.Interval
	}
	return r.cfg.DriftInterval
}

// UpToDate runs the steps of Run that come before any tofu process, and
// reports whether Run would end there: the stack is up to date, so an
// apply starts no tofu process (and strata controller no runner Job). The
// result is then the one Run returns, with the same "up to date" line
// logged. A stack with an apply to adopt, an error, or anything to plan is
// not up to date: Run decides what happens to it.
func (r *Runner) UpToDate(ctx context.Context, req Request) (Result, bool) {
	dir, err := r.workspaceDir(req)
	if err != nil {
		return Result{}, false
	}
	if _, ok, err := tofu.ReadRecord(dir); err != nil || ok {
		return Result{}, false
	}
	st := r.newState(req, nil)
	st.run.ToVersion, st.run.Digest = req.Artifact.Version, req.Artifact.Digest
	if err := do(ctx, st, []step{
		r.gatherInputs,
		r.readLastGood,
		r.checkState,
		r.skipWhenUpToDate,
	}); err != nil || !st.done {
		return Result{}, false
	}
	return st.result(), true
}
