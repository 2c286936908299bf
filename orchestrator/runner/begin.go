package runner

import (
	"context"
	"fmt"

	"github.com/strata-iac/strata/orchestrator/runlog"
)

// begin records the run as running, which gives it its number.
func (r *Runner) begin(ctx context.Context, st *runState) error {
	run, err := r.cfg.History.Begin(ctx, st.run)
	if err != nil {
		verb := "run"
		if st.removal != nil {
			verb = "remove"
		}
		return fmt.Errorf("%s stack %s: %w", verb, st.req.Stack.Name, err)
	}
	st.run = run
	// Every line of the run from here on carries its number.
	st.log = st.log.With(runlog.RunKey, run.Number)
	version := versionOrDigest(st.req.Artifact)
	if st.removal != nil {
		version = "removed"
	}
	st.log.Info(fmt.Sprintf("run #%d started", run.Number),
		"operation", string(st.req.Operation), "mode", mode(st.req.Stack), "version", version)
	return nil
}
