package tofu

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-exec/tfexec"
)

// Init runs `tofu init` in the workspace. The backend is reconfigured, so a
// changed backend configuration never stops to ask about migrating state.
func (w *Workspace) Init(ctx context.Context, events func(Event)) error {
	ew := newEventWriter(events)
	defer w.tf.SetStdout(nil)
	err := w.tf.InitJSON(ctx, ew, tfexec.Reconfigure(true), tfexec.Upgrade(false))
	if err = ew.wrap(err); err != nil {
		return fmt.Errorf("tofu init: %w", err)
	}
	return nil
}
