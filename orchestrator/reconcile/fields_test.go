package reconcile_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/history"
)

// TestRunnerPodFieldsChangeNothing backs the rows of docs/terraform-fields.md of the fields
// that configure the Tofu Controller's runner pod or its bookkeeping
// (serviceAccountName, alwaysCleanupRunnerPod,
// runnerTerminationGracePeriodSeconds, runnerPodTemplate, enableInventory,
// storeReadablePlan): strata has no runner pod and always keeps its own
// records, so setting them on an applied stack changes nothing, not even
// its fingerprint.
func TestRunnerPodFieldsChangeNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if rep, logs := e.reconcile(history.OperationApply, time.Hour); !rep.Converged() {
		t.Fatalf("first apply failed:\n%s", logs)
	}
	e.editSpec("app", "service-stacks", `  serviceAccountName: tf-runner
  alwaysCleanupRunnerPod: false
  runnerTerminationGracePeriodSeconds: 60
  runnerPodTemplate:
    metadata:
      labels: {team: a}
    spec:
      image: ghcr.io/flux-iac/tf-runner:v0.16.0
      nodeSelector: {pool: infra}
      resources: {limits: {memory: 1Gi}}
  enableInventory: true
  storeReadablePlan: human
`)
	rep, logs := e.reconcile(history.OperationApply, time.Hour)
	want := map[string]string{
		"base": "unchanged/", "net": "unchanged/", "cluster": "unchanged/",
		"app": "unchanged/", "jobs": "unchanged/", "report": "unchanged/",
	}
	if diff := cmp.Diff(want, results(rep)); diff != "" {
		t.Errorf("apply with runner pod fields: results diff (-want +got):\n%s\nlogs:\n%s", diff, logs)
	}
}
