//go:build kube

package main

import (
	"path/filepath"
	"testing"
)

// TestInvalidKubeFlagValues is TestInvalidFlagValues for the commands and
// flags strata-kube runs: the same usage errors, before anything runs.
func TestInvalidKubeFlagValues(t *testing.T) {
	root := repo(t)
	env := filepath.Join(root, "environments", "acme", "dev")
	checkUsageErrors(t, []usageCase{
		{"bad lease namespace", []string{"reconcile", env, "--leader-elect", "--leader-elect-namespace", "Strata_NS"}, `--leader-elect-namespace "Strata_NS" is not a namespace name`},
		{"bad lease name", []string{"reconcile", env, "--leader-elect", "--leader-elect-name", "../x"}, `--leader-elect-name "../x" is not a Lease name`},
		{"no lease duration", []string{"reconcile", env, "--leader-elect", "--leader-elect-lease-duration", "0"}, "--leader-elect-lease-duration is 0s: it must be more than 0"},
		{"negative retry period", []string{"reconcile", env, "--leader-elect", "--leader-elect-retry-period", "-1s"}, "--leader-elect-retry-period is -1s: it must be more than 0"},
		{"lease shorter than renewal", []string{"reconcile", env, "--leader-elect", "--leader-elect-lease-duration", "10s"}, "--leader-elect-lease-duration 10s must be longer than --leader-elect-renew-deadline 10s"},
		{"renewal without retries", []string{"reconcile", env, "--leader-elect", "--leader-elect-retry-period", "9s"}, "--leader-elect-renew-deadline 10s must be longer than 10.8s"},
		{"controller without a namespace", []string{"controller"}, "give at least one --namespace to watch"},
		{"controller namespace that is no name", []string{"controller", "--namespace", "Infra_NS"}, `--namespace "Infra_NS" is not a namespace name`},
		{"controller without interval", []string{"controller", "--namespace", "infra", "--interval", "0"}, "--interval is 0s: it must be more than 0"},
		{"controller without runners", []string{"controller", "--namespace", "infra", "--max-runners", "0"}, "--max-runners is 0: it must be at least 1"},
		{"controller lease shorter than renewal", []string{"controller", "--namespace", "infra", "--leader-elect-lease-duration", "10s"}, "--leader-elect-lease-duration 10s must be longer than --leader-elect-renew-deadline 10s"},
		{"unknown runners", []string{"controller", "--namespace", "infra", "--runners", "pods"}, `--runners is "pods": it must be jobs or in-process`},
		{"controller records without a bucket", []string{"controller", "--namespace", "infra", "--records", "s3:///strata"}, "no bucket"},
		{"unknown pull policy", []string{"controller", "--namespace", "infra", "--runner-image-pull-policy", "Sometimes"}, `--runner-image-pull-policy is "Sometimes"`},
		{"runner env secret not a name", []string{"controller", "--namespace", "infra", "--runners", "jobs", "--runner-env-from-secret", "AWS Keys"}, `--runner-env-from-secret "AWS Keys" is not a Secret name`},
		{"runner job ttl too short", []string{"controller", "--namespace", "infra", "--runner-job-ttl", "30s"}, "--runner-job-ttl is 30s: it must be at least 1m"},
		{"no runner pod refused timeout", []string{"controller", "--namespace", "infra", "--runner-pod-refused-timeout", "0"}, "--runner-pod-refused-timeout is 0s: it must be more than 0"},
		{"watch label selector that does not parse", []string{"controller", "--namespace", "infra", "--watch-label-selector", "sharding.fluxcd.io/key in shard1"}, `--watch-label-selector: label selector "sharding.fluxcd.io/key in shard1": `},
		{"runner env secret in process", []string{"controller", "--namespace", "infra", "--runners", "in-process", "--runner-env-from-secret", "aws"}, "--runner-env-from-secret is for runner Jobs"},
		{"policy directories with runner Jobs", []string{"controller", "--namespace", "infra", "--runners", "jobs", "--policy", "policies"}, "--policy policies: runner Jobs judge their plans in their pods"},
	})
}
