package tofu

import (
	"context"
	"fmt"
)

// ForceUnlock runs `tofu force-unlock -force ID` in the workspace: it
// releases the state lock with that ID, whoever holds it.
func (w *Workspace) ForceUnlock(ctx context.Context, id string) error {
	if _, err := w.command(ctx, nil, "force-unlock", "-force", id); err != nil {
		return fmt.Errorf("tofu force-unlock %s: %w", id, err)
	}
	return nil
}
