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
	state := filepath.Join(t.TempDir(), "state")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no runners", []string{"apply", env, "--max-runners", "0"}, "--max-runners is 0: it must be at least 1"},
		{"negative runners", []string{"plan", env, "--max-runners", "-1"}, "--max-runners is -1: it must be at least 1"},
		{"no timeout", []string{"apply", env, "--timeout", "0"}, "--timeout is 0s: it must be more than 0"},
		{"negative timeout", []string{"plan", env, "--timeout", "-5m"}, "--timeout is -5m0s: it must be more than 0"},
		{"no shutdown grace", []string{"apply", env, "--shutdown-grace", "0"}, "--shutdown-grace is 0s: it must be more than 0"},
		{"negative drift interval", []string{"apply", env, "--drift-interval", "-1h"}, "--drift-interval is -1h0m0s: it must be 0"},
		{"reconcile without runners", []string{"reconcile", env, "--max-runners", "0"}, "--max-runners is 0: it must be at least 1"},
		{"negative interval", []string{"reconcile", env, "--interval", "-1m"}, "--interval must be positive"},
		{"election flag without --leader-elect", []string{"reconcile", env, "--leader-elect-name", "x"}, "--leader-elect-name is set without --leader-elect"},
		{"bad lease namespace", []string{"reconcile", env, "--leader-elect", "--leader-elect-namespace", "Strata_NS"}, `--leader-elect-namespace "Strata_NS" is not a namespace name`},
		{"bad lease name", []string{"reconcile", env, "--leader-elect", "--leader-elect-name", "../x"}, `--leader-elect-name "../x" is not a Lease name`},
		{"no lease duration", []string{"reconcile", env, "--leader-elect", "--leader-elect-lease-duration", "0"}, "--leader-elect-lease-duration is 0s: it must be more than 0"},
		{"negative retry period", []string{"reconcile", env, "--leader-elect", "--leader-elect-retry-period", "-1s"}, "--leader-elect-retry-period is -1s: it must be more than 0"},
		{"lease shorter than renewal", []string{"reconcile", env, "--leader-elect", "--leader-elect-lease-duration", "10s"}, "--leader-elect-lease-duration 10s must be longer than --leader-elect-renew-deadline 10s"},
		{"renewal without retries", []string{"reconcile", env, "--leader-elect", "--leader-elect-retry-period", "9s"}, "--leader-elect-renew-deadline 10s must be longer than 10.8s"},
		{"negative history limit", []string{"history", env, "--limit", "-1"}, "--limit is -1: it must be 0"},
		{"missing age key file", []string{"validate", env, "--sops-age-key-file", filepath.Join(root, "missing.agekey")}, "--sops-age-key-file: read age key file " + filepath.Join(root, "missing.agekey")},
		{"not an age key file", []string{"plan", env, "--sops-age-key-file", filepath.Join(env, "init.yaml")}, "init.yaml: failed to parse and add to age identities"},
		{"controller without a namespace", []string{"controller"}, "give at least one --namespace to watch"},
		{"controller namespace that is no name", []string{"controller", "--namespace", "Infra_NS"}, `--namespace "Infra_NS" is not a namespace name`},
		{"controller without interval", []string{"controller", "--namespace", "infra", "--interval", "0"}, "--interval is 0s: it must be more than 0"},
		{"controller without runners", []string{"controller", "--namespace", "infra", "--max-runners", "0"}, "--max-runners is 0: it must be at least 1"},
		{"controller lease shorter than renewal", []string{"controller", "--namespace", "infra", "--leader-elect-lease-duration", "10s"}, "--leader-elect-lease-duration 10s must be longer than --leader-elect-renew-deadline 10s"},
		{"unknown runners", []string{"controller", "--namespace", "infra", "--runners", "pods"}, `--runners is "pods": it must be jobs or in-process`},
		{"apply records not in a bucket", []string{"apply", env, "--records", "records/strata"}, "--records: records \"records/strata\": want s3://bucket/prefix"},
		{"reconcile records with a query", []string{"reconcile", env, "--records", "s3://records/strata?region=x"}, "without user, query or fragment"},
		{"controller records without a bucket", []string{"controller", "--namespace", "infra", "--records", "s3:///strata"}, "no bucket"},
		{"unknown pull policy", []string{"controller", "--namespace", "infra", "--runner-image-pull-policy", "Sometimes"}, `--runner-image-pull-policy is "Sometimes"`},
		{"runner env secret not a name", []string{"controller", "--namespace", "infra", "--runners", "jobs", "--runner-env-from-secret", "AWS Keys"}, `--runner-env-from-secret "AWS Keys" is not a Secret name`},
		{"runner job ttl too short", []string{"controller", "--namespace", "infra", "--runner-job-ttl", "30s"}, "--runner-job-ttl is 30s: it must be at least 1m"},
		{"no runner pod refused timeout", []string{"controller", "--namespace", "infra", "--runner-pod-refused-timeout", "0"}, "--runner-pod-refused-timeout is 0s: it must be more than 0"},
		{"runner env secret in process", []string{"controller", "--namespace", "infra", "--runners", "in-process", "--runner-env-from-secret", "aws"}, "--runner-env-from-secret is for runner Jobs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkRun(t, append(tt.args, "--state-dir", state), 2, nil, []string{tt.want})
		})
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Errorf("Stat(%q) = %v, want nothing written for a bad command line", state, err)
	}
}
