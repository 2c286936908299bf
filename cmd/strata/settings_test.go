package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// TestValidateSettings: strata validate reports a bad init key with its
// file and fix before anything runs.
func TestValidateSettings(t *testing.T) {
	root := repo(t)
	env := filepath.Join(root, "environments", "acme", "dev")
	initFile := filepath.Join(env, "init.yaml")
	b, err := os.ReadFile(initFile)
	if err != nil {
		t.Fatal(err)
	}
	b = []byte(strings.Replace(string(b), "  region: eu-west-1\n", "  region: eu-west-1\n  stateBackend: gcs\n  contractStore: vault\n", 1))
	if err := os.WriteFile(initFile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(t.TempDir(), "state")
	runCases(t, []cliCase{
		{"validate", []string{"validate", env}, 1, []string{
			"environments/acme/dev/init.yaml",
			`data.stateBackend is "gcs"; it must be local or s3`,
			`data.contractStore is "vault"; it must be local, ssm or s3`,
		}, []string{"problem(s) found"}},
		{"apply runs nothing", []string{"apply", env, "--state-dir", state, "--tofu", tofutest.Binary(t)}, 1, nil, []string{`data.stateBackend is "gcs"`}},
	})
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Errorf("Stat(%q) = %v, want nothing written for an invalid environment", state, err)
	}
}
