package tofu

import (
	"context"
	"fmt"
	"io"
)

// DefaultWorkspace is the workspace tofu starts in.
const DefaultWorkspace = "default"

// SelectWorkspace runs `tofu workspace select -or-create` after init: the
// named workspace is selected, and created (with an empty state) when it
// does not exist yet. The selection is kept in .terraform/environment, so
// every later command of the workspace uses its state. An empty name is
// the default workspace.
func (w *Workspace) SelectWorkspace(ctx context.Context, name string) error {
	if name == "" {
		name = DefaultWorkspace
	}
	if code, err := w.command(ctx, io.Discard, "workspace", "select", "-or-create=true", name); code != 0 {
		return fmt.Errorf("tofu workspace select %s: %w", name, err)
	}
	return nil
}
