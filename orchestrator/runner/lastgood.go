package runner

import (
	"context"
	"fmt"
)

// readLastGood reads the stack's last good apply, which what changed is
// worked out against.
func (r *Runner) readLastGood(ctx context.Context, st *runState) error {
	prev, ok, err := r.cfg.History.LastGood(ctx, st.req.Client, st.req.Env, st.req.Stack.Name)
	if err != nil {
		return fmt.Errorf("run stack %s: %w", st.req.Stack.Name, err)
	}
	st.prev, st.hasPrev = prev, ok
	st.run.FromVersion = prev.ToVersion
	return nil
}
