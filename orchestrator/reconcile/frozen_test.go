package reconcile_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/history"
)

// TestFrozen checks that what Flux does not apply, strata does not
// change: a stack under a suspended Kustomization, or under one that
// depends on it (Flux waits for its revision), and a Terraform object
// marked kustomize.toolkit.fluxcd.io/ssa: Ignore keep what they last
// ran, neither planned nor applied though their inputs changed, and say
// why; their dependents go on. A frozen stack that never ran is not
// created, and its dependents wait; one marked ssa: IfNotPresent is
// created once, then kept. Once resumed, the change is planned.
func TestFrozen(t *testing.T) {
	t.Parallel()
	const (
		jobsKustomization = "environments/acme/dev/services/jobs.yaml"
		appTerraform      = "flux-apps/service-stacks/app/terraform.yaml"
		baseTerraform     = "flux-apps/platform-stacks/base/terraform.yaml"
		netKustomization  = "environments/acme/dev/platform/net.yaml"
	)
	suspend := func(e *env, file string) {
		testkit.EditFile(t, e.root, file, "  interval: 10m\n", "  interval: 10m\n  suspend: true\n")
	}

	t.Run("kept as last run", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		if rep, logs := e.reconcile(history.OperationApply, time.Hour); !rep.Converged() {
			t.Fatalf("first apply failed:\n%s", logs)
		}
		// jobs is suspended and app marked ssa: Ignore; both change.
		suspend(e, jobsKustomization)
		e.editSpec("jobs", "service-stacks", "  refreshBeforeApply: true\n")
		testkit.EditFile(t, e.root, appTerraform, "  annotations:\n", "  annotations:\n    kustomize.toolkit.fluxcd.io/ssa: Ignore\n")
		e.editSpec("app", "service-stacks", "  refreshBeforeApply: true\n")
		rep, logs := e.reconcile(history.OperationApply, 0)
		want := map[string]string{
			"base": "no-changes/", "net": "no-changes/", "cluster": "no-changes/",
			"app": "unchanged/", "jobs": "unchanged/", "report": "unchanged/",
		}
		if diff := cmp.Diff(want, results(rep)); diff != "" {
			t.Fatalf("apply with jobs suspended and app ignored: results diff (-want +got):\n%s\nlogs:\n%s", diff, logs)
		}
		for _, line := range []string{
			"INFO [jobs] kept as run #1 left it (version 1.0.0): Kustomization jobs (" + jobsKustomization + ") is suspended (spec.suspend: true), so Flux applies none of its changes, so the stack is neither planned nor applied",
			"INFO [report] kept as run #1 left it (version 1.0.0): Kustomization report (environments/acme/dev/services/report.yaml) depends on Kustomization jobs, which is suspended",
			"INFO [app] kept as run #1 left it (version 1.0.0): Terraform/app in " + appTerraform + " is marked kustomize.toolkit.fluxcd.io/ssa: Ignore, so Flux applies no change to it",
		} {
			if !strings.Contains(logs, line) {
				t.Errorf("apply with jobs suspended: logs lack %q\nlogs:\n%s", line, logs)
			}
		}
		if !rep.Converged() {
			t.Errorf("report with kept stacks: Converged = false, want true (they keep what they last ran)")
		}
		for _, stack := range []string{"jobs", "app", "report"} {
			if runs := historyOf(t, e.root, e.state, "acme", "dev", stack); len(runs) != 1 {
				t.Errorf("history of kept %s = %+v, want its one first run", stack, runs)
			}
		}

		testkit.EditFile(t, e.root, jobsKustomization, "  suspend: true\n", "")
		testkit.EditFile(t, e.root, appTerraform, "    kustomize.toolkit.fluxcd.io/ssa: Ignore\n", "")
		rep, logs = e.reconcile(history.OperationApply, time.Hour)
		if got := results(rep); got["jobs"] != "no-changes/config" || got["app"] != "no-changes/config" {
			t.Errorf("apply once resumed: results = %v, want jobs and app planned for their new spec\nlogs:\n%s", got, logs)
		}
	})

	t.Run("never ran: not created", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		suspend(e, netKustomization)
		testkit.EditFile(t, e.root, baseTerraform, "  annotations:\n", "  annotations:\n    kustomize.toolkit.fluxcd.io/ssa: IfNotPresent\n")
		rep, logs := e.reconcile(history.OperationApply, time.Hour)
		want := map[string]string{
			"base": "applied/install", "net": "suspended/", "cluster": "waiting/",
			"app": "waiting/", "jobs": "waiting/", "report": "waiting/",
		}
		if diff := cmp.Diff(want, results(rep)); diff != "" {
			t.Fatalf("apply with net suspended from the start: results diff (-want +got):\n%s\nlogs:\n%s", diff, logs)
		}
		line := "INFO [net] not created: Kustomization net (" + netKustomization + ") is suspended (spec.suspend: true), so Flux applies none of its changes, and it never ran, so the stack is neither planned nor applied until Flux applies it"
		if !strings.Contains(logs, line) {
			t.Errorf("apply with net suspended: logs lack %q\nlogs:\n%s", line, logs)
		}
		// ssa: IfNotPresent: created once, then kept.
		e.editSpec("base", "platform-stacks", "  refreshBeforeApply: true\n")
		rep, logs = e.reconcile(history.OperationApply, 0)
		if got := results(rep)["base"]; got != "unchanged/" || !strings.Contains(logs, "INFO [base] kept as run #1 left it") {
			t.Errorf("apply of base, marked ssa: IfNotPresent, once created = %s, want unchanged and kept\nlogs:\n%s", got, logs)
		}
	})
}
