package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-iac/strata/internal/sopstest"
)

// TestInvalidFlagValues refuses flag values out of range as usage errors
// (exit code 2) naming the flag, before anything runs. strata-sops checks
// the age key file.
func TestInvalidFlagValues(t *testing.T) {
	sopstest.Helper(t)
	root := repo(t)
	env := filepath.Join(root, "environments", "acme", "dev")
	checkUsageErrors(t, []usageCase{
		{"no runners", []string{"apply", env, "--max-runners", "0"}, "--max-runners is 0: it must be at least 1"},
		{"negative runners", []string{"plan", env, "--max-runners", "-1"}, "--max-runners is -1: it must be at least 1"},
		{"no timeout", []string{"apply", env, "--timeout", "0"}, "--timeout is 0s: it must be more than 0"},
		{"negative timeout", []string{"plan", env, "--timeout", "-5m"}, "--timeout is -5m0s: it must be more than 0"},
		{"no shutdown grace", []string{"apply", env, "--shutdown-grace", "0"}, "--shutdown-grace is 0s: it must be more than 0"},
		{"negative drift interval", []string{"apply", env, "--drift-interval", "-1h"}, "--drift-interval is -1h0m0s: it must be 0"},
		{"reconcile without runners", []string{"reconcile", env, "--max-runners", "0"}, "--max-runners is 0: it must be at least 1"},
		{"no runs kept", []string{"apply", env, "--keep-runs", "0"}, "--keep-runs is 0: it must be at least 1"},
		{"negative days kept", []string{"reconcile", env, "--keep-days", "-1"}, "--keep-days is -1: it must be 0 (keep by count alone) or more"},
		{"negative interval", []string{"reconcile", env, "--interval", "-1m"}, "--interval must be positive"},
		{"election flag without --leader-elect", []string{"reconcile", env, "--leader-elect-name", "x"}, "--leader-elect-name is set without --leader-elect"},
		{"negative history limit", []string{"history", env, "--limit", "-1"}, "--limit is -1: it must be 0"},
		{"missing age key file", []string{"validate", env, "--sops-age-key-file", filepath.Join(root, "missing.agekey")}, "--sops-age-key-file: read age key file " + filepath.Join(root, "missing.agekey")},
		{"not an age key file", []string{"plan", env, "--sops-age-key-file", filepath.Join(env, "init.yaml")}, "init.yaml: failed to parse and add to age identities"},
		{"apply records not in a bucket", []string{"apply", env, "--records", "records/strata"}, "--records: records \"records/strata\": want s3://bucket/prefix"},
		{"reconcile records with a query", []string{"reconcile", env, "--records", "s3://records/strata?region=x"}, "without user, query or fragment"},
	})
}

// usageCase is a command line that is a usage error saying want.
type usageCase struct {
	name string
	args []string
	want string
}

// checkUsageErrors runs each case against a state directory of its own,
// expecting exit code 2 and the message, and nothing written there.
func checkUsageErrors(t *testing.T, tests []usageCase) {
	t.Helper()
	state := filepath.Join(t.TempDir(), "state")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkRun(t, append(tt.args, "--state-dir", state), 2, nil, []string{tt.want})
		})
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Errorf("Stat(%q) = %v, want nothing written for a bad command line", state, err)
	}
}
