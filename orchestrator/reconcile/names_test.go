package reconcile_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// addTeamReport adds a second Terraform report, in namespace team-b, with
// the first one's code and the same output Secret name: a Flux
// Kustomization report-b brings it in.
func (e *env) addTeamReport() {
	e.t.Helper()
	e.write("environments/acme/dev/services/report-b.yaml", `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: report-b
  namespace: flux-system
spec:
  interval: 10m
  path: ./flux-apps/service-stacks/report-b
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
  postBuild:
    substituteFrom:
      - kind: ConfigMap
        name: init
`)
	e.write("flux-apps/service-stacks/report-b/kustomization.yaml", "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - terraform.yaml\n")
	e.write("flux-apps/service-stacks/report-b/terraform.yaml", `apiVersion: infra.contrib.fluxcd.io/v1alpha2
kind: Terraform
metadata:
  name: report
  namespace: team-b
  annotations:
    strata.dev/read-contracts: |
      configuration: (base|net)
spec:
  interval: 10m
  approvePlan: auto
  path: ./flux-apps/service-stacks/report/terraform
  sourceRef:
    kind: GitRepository
    name: flux-system
    namespace: flux-system
  vars:
    - name: client_id
      value: ${clientId}
    - name: environment
      value: ${environment}
  writeOutputsToSecret:
    name: report
`)
}

func (e *env) write(rel, body string) {
	e.t.Helper()
	p := filepath.Join(e.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// pinReport sets, or with "" removes, the strata.dev/stack annotation of
// the first Terraform report (namespace flux-system).
func (e *env) pinReport(name string) {
	e.t.Helper()
	rel := "flux-apps/service-stacks/report/terraform.yaml"
	b, err := os.ReadFile(filepath.Join(e.root, rel))
	if err != nil {
		e.t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	out := lines[:0:0]
	for _, l := range lines {
		if !strings.Contains(l, "strata.dev/stack:") {
			out = append(out, l)
		}
		if l == "  annotations:" && name != "" {
			out = append(out, "    strata.dev/stack: "+name)
		}
	}
	e.write(rel, strings.Join(out, "\n"))
}

func (e *env) exists(rel ...string) bool {
	_, err := os.Stat(filepath.Join(append([]string{e.state}, rel...)...))
	return err == nil
}

// TestTerraformsByNamespaceRun: two Terraform objects of one name in two
// namespaces are two stacks, with their own state, runs and contracts.
// One that is renamed so (another namespace gained an object of its
// name, or lost it) while its runs are under its other name does not
// run, nor is that other name removed, until the strata.dev/stack
// annotation says which name its runs are under.
func TestTerraformsByNamespaceRun(t *testing.T) {
	t.Parallel()
	t.Run("a second namespace's object of an applied stack's name", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		if rep, logs := e.reconcile(history.OperationApply, time.Hour); !rep.Converged() {
			t.Fatalf("first apply failed:\n%s", logs)
		}
		e.addTeamReport()
		rep, logs := e.reconcile(history.OperationApply, time.Hour)
		for name, want := range map[string]string{
			"flux-system_report": "its runs, state and contract are under report, its name until another namespace had, or no longer had, a Terraform report",
			"team-b_report":      "the runs, state and contract under report are Terraform flux-system/report's",
		} {
			got := stack(t, rep, name)
			if got.Result != history.ResultFailed || !strings.Contains(got.Message, want) || !strings.Contains(got.Message, "annotate Terraform flux-system/report in flux-apps/service-stacks/report/terraform.yaml with strata.dev/stack: report") {
				t.Errorf("apply: %s = %s %q, want it held: %q\nlogs:\n%s", name, got.Result, got.Message, want, logs)
			}
		}
		for _, s := range rep.Stacks {
			if s.Stack == "report" {
				t.Errorf("apply: report = %+v, want it neither removed nor run: its runs are flux-system/report's", s)
			}
		}
		if doc := readContract(t, e.state, "acme", "dev", "report"); !doc.Installed {
			t.Errorf("contract report = %+v after the hold, want it as it was", doc)
		}

		e.pinReport("report")
		rep, logs = e.reconcile(history.OperationApply, time.Hour)
		if got := stack(t, rep, "report"); got.Result == history.ResultFailed || got.Cause == runner.CauseInstall {
			t.Errorf("pinned: report = %s/%s %q, want its runs kept\nlogs:\n%s", got.Result, got.Cause, got.Message, logs)
		}
		if got := stack(t, rep, "team-b_report"); got.Result != history.ResultApplied || got.Cause != runner.CauseInstall {
			t.Errorf("pinned: team-b_report = %s/%s %q, want applied/install\nlogs:\n%s", got.Result, got.Cause, got.Message, logs)
		}
		for _, c := range []string{"flux-system_report", "team-b_report"} {
			if doc := readContract(t, e.state, "acme", "dev", c); !doc.Installed || doc.Stack == "" {
				t.Errorf("contract %s = %+v, want it published", c, doc)
			}
		}
		if !e.exists("state", "acme", "dev", "report.tfstate") || !e.exists("state", "acme", "dev", "team-b_report.tfstate") {
			t.Errorf("state of report and team-b_report: want each its own file under %s", filepath.Join(e.state, "state", "acme", "dev"))
		}

		// flux-system's report leaves: team-b's has the name alone again,
		// whose runs are flux-system's.
		if err := os.Remove(filepath.Join(e.root, "environments", "acme", "dev", "services", "report.yaml")); err != nil {
			t.Fatal(err)
		}
		rep, logs = e.reconcile(history.OperationApply, time.Hour)
		got := stack(t, rep, "report")
		want := "annotate Terraform team-b/report in flux-apps/service-stacks/report-b/terraform.yaml with strata.dev/stack: team-b_report"
		if got.Result != history.ResultFailed || !strings.Contains(got.Message, want) {
			t.Errorf("flux-system's gone: report = %s %q, want it held: %q\nlogs:\n%s", got.Result, got.Message, want, logs)
		}
	})
	t.Run("an object that has its name alone again", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		e.addTeamReport()
		rep, logs := e.reconcile(history.OperationApply, time.Hour)
		for _, name := range []string{"flux-system_report", "team-b_report"} {
			if got := stack(t, rep, name); got.Result != history.ResultApplied || got.Cause != runner.CauseInstall {
				t.Fatalf("first apply: %s = %s/%s %q, want applied/install\nlogs:\n%s", name, got.Result, got.Cause, got.Message, logs)
			}
		}
		for _, rel := range []string{"environments/acme/dev/services/report-b.yaml", "flux-apps/service-stacks/report-b"} {
			if err := os.RemoveAll(filepath.Join(e.root, rel)); err != nil {
				t.Fatal(err)
			}
		}
		rep, logs = e.reconcile(history.OperationApply, time.Hour)
		got := stack(t, rep, "report")
		want := "annotate Terraform flux-system/report in flux-apps/service-stacks/report/terraform.yaml with strata.dev/stack: flux-system_report"
		if got.Result != history.ResultFailed || !strings.Contains(got.Message, want) {
			t.Errorf("apply: report = %s %q, want it held: %q\nlogs:\n%s", got.Result, got.Message, want, logs)
		}
		for _, s := range rep.Stacks {
			if s.Stack == "flux-system_report" {
				t.Errorf("apply: flux-system_report = %+v, want it neither removed nor run: its runs are report's", s)
			}
		}
		if got := stack(t, rep, "team-b_report"); got.Cause != runner.CauseRemoved {
			t.Errorf("apply: team-b_report = %s/%s, want its removal", got.Result, got.Cause)
		}

		e.pinReport("flux-system_report")
		rep, logs = e.reconcile(history.OperationApply, time.Hour)
		if got := stack(t, rep, "flux-system_report"); got.Result == history.ResultFailed || got.Cause == runner.CauseInstall {
			t.Errorf("pinned: flux-system_report = %s/%s %q, want its runs kept\nlogs:\n%s", got.Result, got.Cause, got.Message, logs)
		}
	})
}
