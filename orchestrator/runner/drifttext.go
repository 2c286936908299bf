package runner

import (
	"context"
	"fmt"
)

// maxDriftText bounds the drift text a run reports, as the Tofu
// Controller bounds a condition's message.
const maxDriftText = 20000

// driftText renders, when Request.DriftText asks, a drift plan with
// changes as `tofu show` prints it for people: strata controller says the
// drift in those words, as the Tofu Controller does (the Result's
// DriftText). One more tofu process, for a drift found only; a failure is
// a warning, and the run goes on.
func (r *Runner) driftText(ctx context.Context, st *runState) error {
	if !st.req.DriftText || !st.plan.changed || st.cause.name != CauseDrift {
		return nil
	}
	text, err := st.ws.tofu.ShowText(ctx, st.ws.planFile)
	if err != nil {
		st.log.Warn(fmt.Sprintf("render the drift of stack %s: %v", st.req.Stack.Name, err))
		return nil
	}
	if r := []rune(string(text)); len(r) > maxDriftText {
		text = []byte(string(r[:maxDriftText]) + "...")
	}
	st.driftText = string(text)
	return nil
}
