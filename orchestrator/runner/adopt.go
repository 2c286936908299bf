package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/tofu"
)

// adoptPoll is how often adopt checks whether the tofu it waits for has
// exited.
const adoptPoll = 500 * time.Millisecond

// InFlightError means another strata, still running, is applying the
// stack: nothing was started, and the next reconcile looks again.
type InFlightError struct {
	Stack  string
	Record tofu.Record
}

func (e *InFlightError) Error() string {
	return fmt.Sprintf("run #%d is applying stack %s (tofu pid %d, started %s by strata pid %d on %s), so nothing was started; the next reconcile looks again",
		e.Record.Run, e.Stack, e.Record.PID, e.Record.Started.Format(time.RFC3339), e.Record.Strata, e.Record.Host)
}

// adopt finds an apply left in the stack's workspace by a strata that
// stopped before it recorded the outcome (killed, say, in the middle of
// the apply: tofu goes on without it). It waits for that tofu to exit,
// never starting a second apply meanwhile, and records the outcome as the
// result of the run the apply belongs to; the stack is then planned
// again. An apply that a running strata looks after is an
// *InFlightError.
func (r *Runner) adopt(ctx context.Context, st *runState) error {
	log, req := st.log, st.req
	dir, err := r.workspaceDir(req)
	if err != nil {
		return err
	}
	rec, ok, err := tofu.ReadRecord(dir)
	if err != nil || !ok {
		return err
	}
	if rec.Exit == nil && rec.StrataAlive() {
		return &InFlightError{Stack: req.Stack.Name, Record: rec}
	}
	if rec.TofuAlive() {
		log.Warn(fmt.Sprintf("run #%d's apply is still in flight (tofu pid %d, started %s ago by a strata that stopped): waiting for it to finish; nothing else is started",
			rec.Run, rec.PID, round(r.cfg.Now().Sub(rec.Started))))
	}
	o, err := tofu.Adopt(ctx, dir, rec, adoptPoll, nil)
	if err != nil {
		return fmt.Errorf("adopt the apply of stack %s: %w", req.Stack.Name, err)
	}
	// The run is the stack's newest, or close to it: read back to it only.
	run, found, err := r.cfg.History.LastMatching(ctx, req.Client, req.Env, req.Stack.Name, func(h history.Run) bool {
		return h.Number == rec.Run
	})
	if err != nil {
		return fmt.Errorf("adopt the apply of stack %s: %w", req.Stack.Name, err)
	}
	if (rec.Exit == nil || rec.Killed()) && !o.Completed {
		dead := rec
		st.dead = &dead
	}
	if rec.Recorded {
		// strata saw its tofu killed, and recorded the run itself (see
		// keepRecord): the record was kept for the lock only.
		found = false
	}
	if found {
		lost := lostCreates(dir, o)
		if aerr := o.Err(); aerr != nil && len(lost) > 0 {
			run.Result, run.Cause, run.Interrupted = history.ResultInterrupted, CauseInterrupted, lost
			run.Error = lostMessage(rec.PID, lost)
			log.Error(fmt.Sprintf("run #%d: %s", run.Number, run.Error))
			st.lost = lost
		} else if aerr != nil {
			run.Result = history.ResultFailed
			run.Error = fmt.Sprintf("the apply went on after strata stopped, and failed: %v", aerr)
			log.Error(fmt.Sprintf("run #%d: %s", run.Number, run.Error))
		} else {
			run.Result, run.Error = history.ResultApplied, ""
			r.readState(ctx, log, req, &run)
			if s := o.Summary; s != nil {
				run.Summary = history.Summary{Add: s.Add, Change: s.Change, Destroy: s.Remove}
			}
			log.Info(fmt.Sprintf("run #%d: the apply went on after strata stopped and completed (%d added, %d changed, %d destroyed); its outcome is recorded",
				run.Number, run.Summary.Add, run.Summary.Change, run.Summary.Destroy))
		}
		if err := r.cfg.History.Record(ctx, run); err != nil {
			return fmt.Errorf("adopt the apply of stack %s: %w", req.Stack.Name, err)
		}
	}
	if err := tofu.ClearRecord(dir); err != nil {
		return err
	}
	st.adopted = true
	return nil
}

// lostMessage says what an apply whose tofu (pid) was killed in the
// middle of creating lost left behind.
func lostMessage(pid int, lost []string) string {
	return fmt.Sprintf("the apply's tofu (pid %d) was killed (with strata, as in a pod or machine crash, or alone, as by the OOM killer) while it created %s, which may exist in the cloud without state", pid, strings.Join(lost, ", "))
}

// clearRecord removes the workspace's apply record once its run is
// recorded in history.
func (r *Runner) clearRecord(run history.Run) error {
	dir, err := r.workspacePath(run.Client, run.Env, run.Stack)
	if err != nil {
		return err
	}
	rec, ok, err := tofu.ReadRecord(dir)
	if err != nil || !ok || rec.Run != run.Number {
		return err
	}
	return tofu.ClearRecord(dir)
}

// lostCreates returns the resources whose create the adopted apply
// started and never ended: nil for an apply that completed. tofu ends
// every create it started when it fails or is interrupted, so such a
// create means its tofu was killed (with strata, as a pod or a machine
// dies, or on its own just before strata was).
func lostCreates(dir string, o tofu.Outcome) []string {
	if o.Completed {
		return nil
	}
	return inFlightCreates(dir)
}

// inFlightCreates reads the apply stream of workspace dir for the
// resources whose create started and never ended.
func inFlightCreates(dir string) []string {
	f, err := os.Open(filepath.Join(dir, tofu.StreamFile))
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	for _, c := range tofu.InFlightCreates(f) {
		out = append(out, c.Address)
	}
	return out
}
