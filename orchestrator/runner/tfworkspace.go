package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/strata-iac/strata/orchestrator/tofu"
)

// selectWorkspace selects the stack's tofu workspace (spec.workspace) after
// init, creating it when it does not exist yet, as the Tofu Controller's
// runner does. Its state then lives where the backend keeps that
// workspace's state: <state>.d/<workspace>/terraform.tfstate for strata's
// local state, env:/<workspace>/<key> in s3. A stack back in the default
// workspace selects default again; a stack that never left it runs no
// command. Nor does a stack without spec.workspace whose module's cloud
// block keeps its state: the block names the workspace, and init selects
// it (the cloud has no default workspace).
func (r *Runner) selectWorkspace(ctx context.Context, st *runState) error {
	want := st.ws.run.Workspace
	if want == "" && st.ws.cloud {
		return nil
	}
	if want == "" {
		b, err := os.ReadFile(filepath.Join(st.ws.dir, ".terraform", "environment"))
		if err != nil || strings.TrimSpace(string(b)) == tofu.DefaultWorkspace {
			return nil
		}
	}
	st.log.Debug("workspace select " + want)
	return st.ws.tofu.SelectWorkspace(ctx, want)
}
