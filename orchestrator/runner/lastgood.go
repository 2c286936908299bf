package runner

import (
	"context"
	"fmt"

	"github.com/strata-iac/strata/orchestrator/history"
)

// headOf is the stack's head (history.Head), read once per run: the steps
// before the run begins record nothing, so the retry wait, the last good
// apply and the state check see the same runs, and a reconcile reads one
// small head of each stack, not its runs.
func (r *Runner) headOf(ctx context.Context, st *runState) (history.Head, error) {
	if !st.head.read {
		st.head.h, st.head.err = r.cfg.History.Head(ctx, st.req.Client, st.req.Env, st.req.Stack.Name)
		st.head.read = true
	}
	return st.head.h, st.head.err
}

// readLastGood reads the stack's last good apply, which what changed is
// worked out against, from its head.
func (r *Runner) readLastGood(ctx context.Context, st *runState) error {
	h, err := r.headOf(ctx, st)
	if err != nil {
		return fmt.Errorf("run stack %s: %w", st.req.Stack.Name, err)
	}
	st.prev, st.hasPrev = h.Good, h.Good.Number > 0
	st.run.FromVersion = h.Good.ToVersion
	return nil
}
