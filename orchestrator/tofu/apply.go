package tofu

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-exec/tfexec"
)

// Apply runs `tofu apply` on exactly the saved plan file, and nothing else:
// what is applied is what was planned. Progress reaches events as it
// happens.
func (w *Workspace) Apply(ctx context.Context, planFile string, events func(Event)) error {
	ew := newEventWriter(events)
	defer w.tf.SetStdout(nil)
	err := w.tf.ApplyJSON(ctx, ew, tfexec.DirOrPlan(planFile))
	if err = ew.wrap(err); err != nil {
		return fmt.Errorf("tofu apply %s: %w", planFile, err)
	}
	return nil
}
