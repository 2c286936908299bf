package runner

import (
	"context"
	"fmt"
	"log/slog"
	"math"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/tofu"
)

// apply applies exactly the plan file the gate let through. An approved
// plan that cannot be applied (tofu finds it stale, say) must not be tried
// forever: it is released, and the next run plans afresh and holds that
// plan for approval.
func (r *Runner) apply(ctx context.Context, st *runState) error {
	if !st.plan.changed {
		return nil
	}
	err := r.applyPlan(ctx, st.log, st.ws, st.planFile, st.plan, st.run.Number, func(addr string) {
		st.run.Interrupted = append(st.run.Interrupted, addr)
	})
	if st.release != nil {
		if rerr := st.release(); rerr != nil {
			st.log.Warn(rerr.Error())
		}
	}
	if err != nil {
		if rec, ok, _ := tofu.ReadRecord(st.ws.dir); ok && rec.Killed() {
			// tofu was killed (a failure or an interruption of its own
			// ends every create it started): its record stays for the
			// next run to adopt, which releases the lock tofu held.
			st.keepRecord = true
			if lost := inFlightCreates(st.ws.dir); len(lost) > 0 {
				err = &lostError{lost: lost, msg: lostMessage(rec.PID, lost), err: err}
			}
		}
		if st.release != nil {
			return fmt.Errorf("the approved plan %s could not be applied, so it was released and the next run holds a fresh plan: %w", st.review.PlanID, err)
		}
		return err
	}
	st.run.Result = history.ResultApplied
	st.message = st.applied
	return nil
}

// lostError is an apply whose tofu was killed while it created lost: the
// run is recorded as interrupted with cause interrupted, and a plan that
// creates any of lost is held for a person.
type lostError struct {
	lost []string
	msg  string
	err  error
}

func (e *lostError) Error() string { return e.msg + ": " + e.err.Error() }
func (e *lostError) Unwrap() error { return e.err }

// applyPlan applies exactly the saved plan file and logs each resource as
// it completes, in the seed's words. tofu outlives strata (see
// tofu.Workspace.Apply); when strata is asked to stop, the apply has the
// shutdown grace to finish before tofu is interrupted.
//
// errored is told each resource whose apply failed: when strata was
// stopping, the run records them as the resources it interrupted.
func (r *Runner) applyPlan(ctx context.Context, log *slog.Logger, ws *workspace, planFile string, p planned, run int, errored func(string)) error {
	var summary *tofu.Summary
	opts := tofu.ApplyOptions{
		Run:       run,
		StopGrace: r.cfg.ShutdownGrace,
		Stopping:  func(msg string) { log.Warn(msg) },
		// As the Tofu Controller passes them to the apply of its plan.
		Targets:     ws.run.Targets,
		Parallelism: ws.run.Parallelism,
		Refresh:     ws.run.RefreshBeforeApply,
	}
	err := ws.tofu.Apply(ctx, planFile, opts, func(e tofu.Event) {
		switch e.Type {
		case "apply_complete":
			line := fmt.Sprintf("%s: %s complete after %ds", e.Resource, noun(e.Action), int(math.Round(e.Elapsed)))
			if e.IDValue != "" {
				line += fmt.Sprintf(" [%s=%s]", e.IDKey, e.IDValue)
			}
			log.Info(line)
		case "apply_errored":
			log.Error(fmt.Sprintf("%s: %s failed", e.Resource, noun(e.Action)))
			errored(e.Resource)
		case "change_summary":
			summary = e.Summary
		default:
			diagnostics(log)(e)
		}
	})
	if err != nil {
		return err
	}
	added, changed, destroyed := p.summary.Add, p.summary.Change, p.summary.Destroy
	if summary != nil {
		added, changed, destroyed = summary.Add, summary.Change, summary.Remove
	}
	log.Info(fmt.Sprintf("apply complete: %d added, %d changed, %d destroyed", added, changed, destroyed))
	return nil
}

// noun names a hook action as tofu's own messages do.
func noun(action string) string {
	switch action {
	case "create":
		return "creation"
	case "update":
		return "modification"
	case "delete":
		return "destruction"
	case "read":
		return "read"
	default:
		return action
	}
}
