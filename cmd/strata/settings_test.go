package main

import (
	"io/fs"
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

// TestEscapingNames reproduces the names: a stack named
// ../../../../../x or team/foo, and clientId ../../x. Each is refused by
// validation, naming the file. A stack's name blocks that Terraform
// object, and the other stacks run: apply writes nothing outside the
// state directory. clientId is the whole environment's: apply writes
// nothing anywhere.
func TestEscapingNames(t *testing.T) {
	tests := []struct {
		name, file, old, new, want string
	}{
		{"stack climbing out", "flux-apps/service-stacks/report/terraform.yaml", "name: report\n", "name: \"../../../../../x\"\n", `metadata.name "../../../../../x" is not a valid Kubernetes object name`},
		{"stack nesting", "flux-apps/service-stacks/report/terraform.yaml", "name: report\n", "name: team/foo\n", `metadata.name "team/foo" is not a valid Kubernetes object name`},
		{"clientId climbing out", "environments/acme/dev/init.yaml", "clientId: acme\n", "clientId: \"../../x\"\n", `data.clientId "../../x" is not a DNS-1123 label`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := repo(t)
			p := filepath.Join(root, tt.file)
			b, err := os.ReadFile(p)
			if err != nil || !strings.Contains(string(b), tt.old) {
				t.Fatalf("%s lacks %q (%v)", tt.file, tt.old, err)
			}
			if err := os.WriteFile(p, []byte(strings.Replace(string(b), tt.old, tt.new, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			env := filepath.Join(root, "environments", "acme", "dev")
			base := t.TempDir()
			state := filepath.Join(base, "a", "b", "c", "state")
			if strings.HasPrefix(tt.file, "environments/") {
				checkRun(t, []string{"apply", env, "--state-dir", state, "--tofu", tofutest.Binary(t)}, 1, nil, []string{tt.file, tt.want})
				entries, err := os.ReadDir(base)
				if err != nil || len(entries) != 0 {
					t.Errorf("apply with %s wrote %v (%v), want nothing", tt.new, entries, err)
				}
				return
			}
			checkRun(t, []string{"apply", env, "--state-dir", state, "--tofu", tofutest.Binary(t)}, 1, []string{"blocked: " + tt.file, tt.want}, nil)
			err = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
				if err == nil && p != base && !strings.HasPrefix(p, state) && !strings.HasPrefix(state, p) {
					t.Errorf("apply with %s wrote %s, outside the state directory %s", tt.new, p, state)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}
