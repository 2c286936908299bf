package reconcile_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/internal/testrepo"
	"github.com/strata-iac/strata/orchestrator/report"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// setInit changes one key of the acme/dev environment's init ConfigMap.
func setInit(t *testing.T, root, key, value string) {
	testrepo.SetInit(t, root, "acme", "dev", key, value)
}

type env struct {
	t          *testing.T
	root       string
	state      string
	tofu       string
	policyDirs []string
}

func newEnv(t *testing.T) *env {
	return &env{t: t, root: testrepo.Fixture(t, "layered"), state: t.TempDir(), tofu: tofutest.Binary(t)}
}

func (e *env) reconcile(op history.Operation, drift time.Duration) (*report.Report, string) {
	e.t.Helper()
	var logs testkit.Buffer
	rep, err := reconcile.Reconcile(context.Background(), filepath.Join(e.root, "environments", "acme", "dev"), op, reconcile.Options{
		Tofu:          e.tofu,
		StateDir:      e.state,
		MaxRunners:    3,
		DriftInterval: drift,
		Logger:        runlog.New(&logs, nil),
		PolicyDirs:    e.policyDirs,
	})
	if err != nil {
		e.t.Fatalf("Reconcile(%s) = %v, want nil\nlogs:\n%s", op, err, logs.String())
	}
	return rep, logs.String()
}

// results maps each stack to "result/cause".
func results(rep *report.Report) map[string]string {
	m := map[string]string{}
	for _, s := range rep.Stacks {
		m[s.Stack] = string(s.Result) + "/" + s.Cause
	}
	return m
}

func TestReconcileApply(t *testing.T) {
	t.Parallel()
	e := newEnv(t)

	// A first apply installs every stack, in graph order, and publishes
	// every contract.
	rep, logs := e.reconcile(history.OperationApply, time.Hour)
	want := map[string]string{
		"base": "applied/install", "net": "applied/install", "cluster": "applied/install",
		"app": "applied/install", "jobs": "applied/install", "report": "applied/install",
	}
	if diff := cmp.Diff(want, results(rep)); diff != "" {
		t.Fatalf("first apply results diff (-want +got):\n%s\nlogs:\n%s", diff, logs)
	}
	order := startOrder(logs)
	for _, before := range [][2]string{{"base", "net"}, {"net", "cluster"}, {"cluster", "app"}, {"cluster", "jobs"}, {"jobs", "report"}} {
		if order[before[0]] > order[before[1]] {
			t.Errorf("first apply started %s before %s, want dependencies first\nlogs:\n%s", before[1], before[0], logs)
		}
	}
	for _, line := range []string{
		`INFO [base] run #1 started {"operation": "apply", "mode": "auto", "version": "0.1.0"}`,
		"INFO [base] plan: create terraform_data.account",
		"INFO [base] plan: 1 to add, 0 to change, 0 to destroy",
		"INFO [base] installing the infrastructure at version 0.1.0",
		"INFO [base] apply complete: 1 added, 0 changed, 0 destroyed",
		"INFO [base] published contract /configuration/base",
	} {
		if !strings.Contains(logs, line) {
			t.Errorf("first apply logs lack %q\nlogs:\n%s", line, logs)
		}
	}
	if doc := readContract(t, e.state, "acme", "dev", "report"); !cmp.Equal(doc.Public["sources"], []any{"base", "net"}) {
		t.Errorf("report, which reads contracts matching (base|net), published sources = %v, want [base net]", doc.Public["sources"])
	}
	if !regexp.MustCompile(`INFO \[base\] run #1 finished in [0-9.]+m?s: the infrastructure is up to date`).MatchString(logs) {
		t.Errorf("first apply logs lack the finished line\nlogs:\n%s", logs)
	}
	if strings.Contains(logs, "SENTINEL") {
		t.Errorf("logs contain a sensitive value:\n%s", logs)
	}

	doc := readContract(t, e.state, "acme", "dev", "base")
	if doc.Private["admin_token"] == nil || !strings.HasPrefix(doc.Private["admin_token"].(string), "SENTINEL-") {
		t.Errorf("contract base private = %v, want admin_token", doc.Private)
	}
	if _, ok := doc.Public["admin_token"]; ok {
		t.Errorf("contract base public = %v, want no admin_token", doc.Public)
	}
	if doc.Public["account_id"] == nil || doc.Version != "0.1.0" || doc.Stack != "base" || !doc.Installed {
		t.Errorf("contract base = %+v, want installed version 0.1.0 of stack base with a public account_id", doc)
	}

	// A second apply changes nothing, and does not even plan.
	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	for name, got := range results(rep) {
		if got != "unchanged/" {
			t.Errorf("second apply %s = %s, want unchanged\nlogs:\n%s", name, got, logs)
		}
	}
	if strings.Contains(logs, "run #2") {
		t.Errorf("second apply ran tofu, want no run\nlogs:\n%s", logs)
	}

	// With a drift check due, every stack plans and finds nothing to do.
	rep, logs = e.reconcile(history.OperationApply, 0)
	for name, got := range results(rep) {
		if got != "no-changes/" {
			t.Errorf("drift check %s = %s, want no-changes\nlogs:\n%s", name, got, logs)
		}
	}

	// A changed variable changes only the stacks that depend on it: net
	// reads cidr; cluster and app read net's vpc_id through contracts; jobs
	// reads only the cluster's name, which did not change, so it is not
	// planned again.
	setInit(t, e.root, "cidr", "10.20.0.0/16")
	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	want = map[string]string{
		"base":    "unchanged/",
		"net":     "applied/variables",
		"cluster": "applied/upstream",
		"app":     "applied/upstream",
		"jobs":    "unchanged/",
		"report":  "applied/upstream",
	}
	if diff := cmp.Diff(want, results(rep)); diff != "" {
		t.Errorf("changed variable results diff (-want +got):\n%s\nlogs:\n%s", diff, logs)
	}
	for _, line := range []string{"INFO [net] variables changed: cidr", "INFO [net] plan: update terraform_data.vpc", "INFO [cluster] upstream contracts changed: net"} {
		if !strings.Contains(logs, line) {
			t.Errorf("changed variable logs lack %q\nlogs:\n%s", line, logs)
		}
	}
}

func TestReconcileFailureSkipsDependents(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	setInit(t, e.root, "jobsFail", `"yes"`)
	rep, logs := e.reconcile(history.OperationApply, time.Hour)
	got := results(rep)
	want := map[string]string{
		"base": "applied/install", "net": "applied/install", "cluster": "applied/install",
		"app": "applied/install", "jobs": "failed/", "report": "skipped/",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("results diff (-want +got):\n%s\nlogs:\n%s", diff, logs)
	}
	if !rep.Failed() || rep.Ready() || rep.Converged() || rep.Held() {
		t.Errorf("Report Failed, Ready, Converged, Held = %v, %v, %v, %v, want true, false, false, false with a failed stack",
			rep.Failed(), rep.Ready(), rep.Converged(), rep.Held())
	}
	for _, s := range rep.Stacks {
		switch s.Stack {
		case "jobs":
			if !strings.Contains(s.Message, "jobs was told to fail") {
				t.Errorf("jobs message = %q, want tofu's precondition error", s.Message)
			}
		case "report":
			if !strings.Contains(s.Message, `dependency "jobs"`) {
				t.Errorf("report message = %q, want it to name dependency jobs", s.Message)
			}
		}
	}

	// Fixed, the next apply installs what failed and what was skipped.
	setInit(t, e.root, "jobsFail", `"no"`)
	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	if diff := cmp.Diff(map[string]string{
		"base": "unchanged/", "net": "unchanged/", "cluster": "unchanged/",
		"app": "unchanged/", "jobs": "applied/install", "report": "applied/install",
	}, results(rep)); diff != "" {
		t.Errorf("after the fix, results diff (-want +got):\n%s\nlogs:\n%s", diff, logs)
	}
}

func TestReconcilePlanWaitsForUpstream(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rep, logs := e.reconcile(history.OperationPlan, time.Hour)
	want := map[string]string{
		"base": "planned/install", "net": "waiting/", "cluster": "waiting/",
		"app": "waiting/", "jobs": "waiting/", "report": "waiting/",
	}
	if diff := cmp.Diff(want, results(rep)); diff != "" {
		t.Errorf("plan results diff (-want +got):\n%s\nlogs:\n%s", diff, logs)
	}
	if !rep.Ready() || rep.Converged() || rep.Failed() || rep.Held() {
		t.Errorf("Report Ready, Converged, Failed, Held = %v, %v, %v, %v, want true, false, false, false: waiting on an upstream is by design",
			rep.Ready(), rep.Converged(), rep.Failed(), rep.Held())
	}
	if !strings.Contains(logs, "INFO [net] waiting for contract base (/configuration/base), which stack base publishes when it is applied") {
		t.Errorf("plan logs lack the waiting line\nlogs:\n%s", logs)
	}
	if _, err := os.Stat(filepath.Join(e.state, "contracts", "acme", "dev", "configuration", "base.json")); !os.IsNotExist(err) {
		t.Errorf("plan published a contract (stat = %v), want nothing published", err)
	}

	// Waiting again for the same contract adds no run to the history.
	e.reconcile(history.OperationPlan, time.Hour)
	if runs := historyOf(t, e.root, e.state, "acme", "dev", "net"); len(runs) != 1 || runs[0].Result != history.ResultWaiting {
		t.Errorf("history of net after waiting twice = %d runs (%+v), want the one waiting run", len(runs), runs)
	}

	// Once the upstreams exist, the stacks that waited run.
	rep, logs = e.reconcile(history.OperationApply, time.Hour)
	for name, got := range results(rep) {
		if got != "applied/install" {
			t.Errorf("apply after waiting: %s = %s, want applied/install\nlogs:\n%s", name, got, logs)
		}
	}
}

// startOrder returns the position of each stack's "run #N started" line.
func startOrder(logs string) map[string]int {
	order := map[string]int{}
	re := regexp.MustCompile(`\[(\w+)\] run #\d+ started`)
	for i, m := range re.FindAllStringSubmatch(logs, -1) {
		if _, ok := order[m[1]]; !ok {
			order[m[1]] = i
		}
	}
	return order
}

type document struct {
	Installed bool           `json:"installed"`
	Version   string         `json:"version"`
	Stack     string         `json:"stack"`
	Public    map[string]any `json:"public"`
	Private   map[string]any `json:"private"`
}

func readContract(t *testing.T, state, client, env, name string) document {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(state, "contracts", client, env, "configuration", name+".json"))
	if err != nil {
		t.Fatalf("read contract %s: %v", name, err)
	}
	var d document
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("parse contract %s: %v", name, err)
	}
	return d
}

// TestSpecChangeRepublishes narrows what a stack publishes: nothing of its
// code or variables changed, yet its spec did, so it is planned again and
// its contract published anew, and the consumers that read what changed
// see the change: report reads base whole; net reads only its account_id,
// which stays, so net is not planned again.
func TestSpecChangeRepublishes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if rep, logs := e.reconcile(history.OperationApply, time.Hour); !rep.Converged() {
		t.Fatalf("first apply failed:\n%s", logs)
	}
	testkit.EditFile(t, e.root, "flux-apps/platform-stacks/base/terraform.yaml", "  writeOutputsToSecret:\n    name: base\n",
		"  writeOutputsToSecret:\n    name: base\n    outputs: [account_id]\n")
	rep, logs := e.reconcile(history.OperationApply, time.Hour)
	if got := stack(t, rep, "base"); got.Result != history.ResultNoChanges || got.Cause != runner.CauseConfig {
		t.Errorf("base = %s/%s, want no-changes/config\nlogs:\n%s", got.Result, got.Cause, logs)
	}
	if doc := readContract(t, e.state, "acme", "dev", "base"); len(doc.Private) != 0 || doc.Public["account_id"] == nil {
		t.Errorf("base contract = %+v, want only account_id", doc)
	}
	if got := stack(t, rep, "report"); got.Cause != runner.CauseUpstream {
		t.Errorf("report cause = %q, want upstream: the contract it reads whole changed", got.Cause)
	}
	if got := stack(t, rep, "net"); got.Result != history.ResultUnchanged {
		t.Errorf("net = %s, want unchanged: what it reads of base did not change", got.Result)
	}
}

// TestMaxRunnersFromInit bounds the tofu processes from the environment's
// init ConfigMap when no option says otherwise.
func TestMaxRunnersFromInit(t *testing.T) {
	t.Parallel()
	root := testrepo.Fixture(t, "layered")
	testkit.EditFile(t, root, "environments/acme/dev/init.yaml", "  region: eu-west-1\n", "  region: eu-west-1\n  maxRunners: \"1\"\n")
	dir := filepath.Join(root, "environments", "acme", "dev")
	for _, tt := range []struct {
		option int
		want   string
	}{
		{0, "plan acme/dev: 6 stacks, at most 1 at once"},
		{4, "plan acme/dev: 6 stacks, at most 4 at once"},
	} {
		var logs testkit.Buffer
		_, err := reconcile.Reconcile(context.Background(), dir, history.OperationPlan, reconcile.Options{
			Tofu: tofutest.Binary(t), StateDir: t.TempDir(), MaxRunners: tt.option, Logger: runlog.New(&logs, nil),
		})
		if err != nil || !strings.Contains(logs.String(), tt.want) {
			t.Errorf("Reconcile(MaxRunners %d) = %v, want the log line %q:\n%s", tt.option, err, tt.want, logs.String())
		}
	}
}
