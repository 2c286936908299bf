package main

import (
	"path/filepath"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
)

// TestSelfSource validates a repository whose Kustomization reads this
// repository under the name platform: a problem until --self-source says
// so, and a usage error for a value that names no GitRepository.
func TestSelfSource(t *testing.T) {
	root := repo(t)
	env := filepath.Join(root, "environments", "acme", "dev")
	testkit.EditFile(t, root, "environments/acme/dev/platform/base.yaml", "    kind: GitRepository\n    name: flux-system\n", "    kind: GitRepository\n    name: platform\n")
	state := filepath.Join(t.TempDir(), "state")
	checkRun(t, []string{"validate", env, "--state-dir", state}, 1, []string{"spec.sourceRef names GitRepository/platform, but strata reads Kustomizations only from", "--self-source GitRepository/<namespace>/<name>"}, nil)
	checkRun(t, []string{"validate", env, "--state-dir", state, "--self-source", "GitRepository/flux-system/platform"}, 0, nil, nil)
	checkUsageErrors(t, []usageCase{
		{"self-source without a namespace", []string{"validate", env, "--self-source", "GitRepository/platform"}, `--self-source: "GitRepository/platform" is not GitRepository/<namespace>/<name>`},
	})
}
