package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	securejoin "github.com/cyphar/filepath-securejoin"

	"github.com/strata-iac/strata/orchestrator/source"
)

// varFiles resolves spec.tfVarsFiles (Run.VarFiles) against the root of
// the stack's source, as the Tofu Controller does: each must stay inside
// it and be a file, else the plan fails naming it, in the Tofu
// Controller's words.
func varFiles(a source.Artifact, files []string) ([]string, error) {
	root := a.Root
	if root == "" {
		root = a.Dir
	}
	out := make([]string, 0, len(files))
	for i, f := range files {
		path, err := securejoin.SecureJoin(root, f)
		if err != nil {
			return nil, fmt.Errorf("spec.tfVarsFiles[%d] %s: %w", i, f, err)
		}
		info, err := os.Stat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("spec.tfVarsFiles[%d] %s: tfvars file's path does not exist: %s (the path is relative to the root of the stack's source, not to spec.path)", i, f, path)
		case err != nil:
			return nil, fmt.Errorf("spec.tfVarsFiles[%d] %s: %w", i, f, err)
		case info.IsDir():
			return nil, fmt.Errorf("spec.tfVarsFiles[%d] %s: tfvars file's path is a directory: %s", i, f, path)
		}
		out = append(out, path)
	}
	return out, nil
}
