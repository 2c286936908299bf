package reconcile_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/flux"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// demo is a copy of the example repository's demo/dev environment, with
// its own state directory.
type demo struct {
	t     *testing.T
	root  string
	state string
	tofu  string
}

func newDemo(t *testing.T) *demo {
	root := t.TempDir()
	for _, d := range []string{"environments", "flux-apps", "modules"} {
		testkit.CopyInto(t, filepath.Join(root, d), filepath.Join("..", "..", d))
	}
	return &demo{t: t, root: root, state: t.TempDir(), tofu: tofutest.Binary(t)}
}

func (d *demo) dir() string { return filepath.Join(d.root, "environments", "demo", "dev") }

func (d *demo) reconcile(op history.Operation) (*report.Report, string) {
	d.t.Helper()
	var logs testkit.Buffer
	rep, err := reconcile.Reconcile(context.Background(), d.dir(), op, reconcile.Options{
		Tofu: d.tofu, StateDir: d.state, MaxRunners: 3, DriftInterval: time.Hour,
		Logger: runlog.New(&logs, nil),
	})
	if err != nil {
		d.t.Fatalf("Reconcile(%s) = %v, want nil\nlogs:\n%s", op, err, logs.String())
	}
	return rep, logs.String()
}

// network is the network stack's outputs file.
const networkOutputs = "flux-apps/platform-stacks/network/terraform/outputs.tf"

// published returns the network contract as published now.
func (d *demo) published() contracts.Document {
	d.t.Helper()
	ctx := context.Background()
	env, err := flux.Load(ctx, d.dir())
	if err != nil {
		d.t.Fatal(err)
	}
	set, err := reconcile.Options{StateDir: d.state}.Settings(env)
	if err != nil {
		d.t.Fatal(err)
	}
	st, err := envstores.OpenStores(ctx, env, set, nil)
	if err != nil {
		d.t.Fatal(err)
	}
	defer st.Close()
	doc, err := st.Contracts.Get(ctx, "/configuration/network")
	if err != nil {
		d.t.Fatal(err)
	}
	return doc
}

// approve approves a held plan as a person does, through the one
// approval path the CLI and the API use.
func (d *demo) approve(stack, id string) {
	d.t.Helper()
	req := approval.Request{Stack: stack, PlanID: id, By: "reviewer", Reason: "retire subnet_ids"}
	if _, err := reconcile.Approve(context.Background(), d.dir(), req, reconcile.Options{StateDir: d.state}); err != nil {
		d.t.Fatalf("Approve(%s, %s) = %v", stack, id, err)
	}
}

// applied applies the demo once and checks every stack applied.
func (d *demo) applied() {
	d.t.Helper()
	if rep, logs := d.reconcile(history.OperationApply); !rep.Converged() || len(rep.Stacks) != 5 {
		d.t.Fatalf("first apply of demo/dev failed:\n%s", logs)
	}
}

// A plan that removes a key a consumer reads is held with cause
// contract-break, naming the consumer, its file:line and the key, and
// nothing is applied. Approved, it applies, and the consumer then fails
// as it would have without the check.
func TestContractBreakRemovedKey(t *testing.T) {
	t.Parallel()
	d := newDemo(t)
	d.applied()
	b, err := os.ReadFile(filepath.Join(d.root, networkOutputs))
	if err != nil {
		t.Fatal(err)
	}
	kept, _, ok := strings.Cut(string(b), `output "subnet_ids"`)
	if !ok {
		t.Fatalf("%s has no output subnet_ids", networkOutputs)
	}
	if err := os.WriteFile(filepath.Join(d.root, networkOutputs), []byte(kept), 0o644); err != nil {
		t.Fatal(err)
	}

	const where = "flux-apps/platform-stacks/cluster/terraform/main.tf:14"
	// The plan says so, and does not preview cluster against a contract
	// that waits for a person: cluster will re-plan once it is applied.
	rep, logs := d.reconcile(history.OperationPlan)
	if got := stack(t, rep, "network"); got.Cause != runner.CauseContractBreak || got.ContractChange == nil ||
		len(got.ContractChange.Consumers) != 1 || got.ContractChange.Consumers[0].Line != 14 {
		t.Errorf("plan: network = %s/%s %+v, want contract-break naming cluster's line 14\nlogs:\n%s", got.Result, got.Cause, got.ContractChange, logs)
	}
	if got := stack(t, rep, "cluster"); got.Result != history.ResultNoChanges || len(got.Upstream) != 1 || got.Upstream[0].Known || rep.Failed() {
		t.Errorf("plan: cluster = %s %+v, want no-changes, to re-plan after network applies\nlogs:\n%s", got.Result, got.Upstream, logs)
	}

	rep, logs = d.reconcile(history.OperationApply)
	network := stack(t, rep, "network")
	if network.Result != history.ResultHeld || network.Cause != runner.CauseContractBreak {
		t.Fatalf("network = %s/%s, want held/contract-break\nlogs:\n%s", network.Result, network.Cause, logs)
	}
	for _, want := range []string{"contract-break", "network.public.subnet_ids removed", "read by cluster at " + where, "strata approve"} {
		if !strings.Contains(network.Message, want) {
			t.Errorf("network's message %q does not say %q", network.Message, want)
		}
	}
	if !strings.Contains(logs, "WARN [network] contract network: public.subnet_ids removed breaks cluster, which reads it at "+where) {
		t.Errorf("logs do not name the break:\n%s", logs)
	}
	if _, still := d.published().Public["subnet_ids"]; !still {
		t.Errorf("network's contract lost subnet_ids: the held plan was applied")
	}
	if got := stack(t, rep, "cluster"); got.Result != history.ResultUnchanged {
		t.Errorf("cluster = %s, want unchanged while network is held", got.Result)
	}
	summary, err := os.ReadFile(filepath.Join(d.state, "held", "demo", "dev", "network", network.PlanID, approval.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if want := "- cluster reads `public.subnet_ids` at " + where + ": removed"; !strings.Contains(string(summary), want) {
		t.Errorf("held summary lacks %q:\n%s", want, summary)
	}

	d.approve("network", network.PlanID)
	rep, logs = d.reconcile(history.OperationApply)
	if got := stack(t, rep, "network"); got.Result != history.ResultApplied {
		t.Fatalf("network after approval = %s (%s), want applied\nlogs:\n%s", got.Result, got.Message, logs)
	}
	if _, still := d.published().Public["subnet_ids"]; still {
		t.Errorf("network's contract still has subnet_ids after the approved plan applied")
	}
	cluster := stack(t, rep, "cluster")
	if cluster.Result != history.ResultFailed || !strings.Contains(cluster.Message, `This object does not have an attribute named "subnet_ids"`) {
		t.Errorf("cluster after approval = %s (%s), want failed on the missing subnet_ids", cluster.Result, cluster.Message)
	}
}

// A key added is no break, and consumers that do not read it are not
// re-planned.
func TestContractAddedKey(t *testing.T) {
	t.Parallel()
	d := newDemo(t)
	d.applied()
	f, err := os.OpenFile(filepath.Join(d.root, networkOutputs), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("\noutput \"zone\" {\n  value = \"a\"\n}\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()

	rep, logs := d.reconcile(history.OperationApply)
	want := map[string]string{
		"account": "unchanged/", "network": "applied/config",
		"cluster": "unchanged/", "api": "unchanged/", "worker": "unchanged/",
	}
	for name, w := range want {
		if got := results(rep)[name]; got != w {
			t.Errorf("%s = %s, want %s\nlogs:\n%s", name, got, w, logs)
		}
	}
	if got := d.published().Public["zone"]; got != "a" {
		t.Errorf("network's contract zone = %v, want a", got)
	}
}

// A key whose type changes from string to list, and that a consumer
// reads, is held.
func TestContractBreakTypeChange(t *testing.T) {
	t.Parallel()
	d := newDemo(t)
	d.applied()
	testkit.EditFile(t, d.root, networkOutputs, "value       = terraform_data.network.output.vpc_id", "value       = [terraform_data.network.output.vpc_id]")

	rep, logs := d.reconcile(history.OperationApply)
	network := stack(t, rep, "network")
	if network.Result != history.ResultHeld || network.Cause != runner.CauseContractBreak ||
		!strings.Contains(network.Message, "network.public.vpc_id changed from string to list: read by cluster at flux-apps/platform-stacks/cluster/terraform/main.tf:4") {
		t.Fatalf("network = %s/%s (%s), want held/contract-break on vpc_id read by cluster\nlogs:\n%s", network.Result, network.Cause, network.Message, logs)
	}
	if got := d.published().Public["vpc_id"]; got == nil || strings.HasPrefix(strings.TrimSpace(got.(string)), "[") {
		t.Errorf("network's vpc_id = %v, want the string still published", got)
	}
}

// Where a producer's plan knows its next contract, each consumer that
// reads a changed key is planned against it: the review shows the changes
// it will make, and lists only the stacks that really read what changes.
func TestPreviewUpstream(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if rep, logs := e.reconcile(history.OperationApply, time.Hour); !rep.Converged() {
		t.Fatalf("first apply failed:\n%s", logs)
	}
	setInit(t, e.root, "cidr", "10.30.0.0/16")
	rep, logs := e.reconcile(history.OperationPlan, time.Hour)

	wantResults := map[string]string{
		"base": "no-changes/", "net": "planned/variables", "cluster": "planned/upstream",
		"app": "planned/upstream", "jobs": "no-changes/", "report": "planned/upstream",
	}
	if diff := cmp.Diff(wantResults, results(rep)); diff != "" {
		t.Errorf("plan results mismatch (-want +got):\n%s\nlogs:\n%s", diff, logs)
	}
	up := func(stack, producer string, keys ...string) report.Upstream {
		return report.Upstream{Stack: stack, Producer: producer, Contract: producer, Keys: keys, Known: true}
	}
	cluster := up("cluster", "net", "public.vpc_id")
	reportStack := up("report", "net", "public.cidr", "public.vpc_id")
	app := up("app", "cluster", "public.vpc_id")
	tests := []struct {
		stack              string
		upstream, downward []report.Upstream
	}{
		{stack: "net", downward: []report.Upstream{cluster, reportStack, app}},
		{stack: "cluster", upstream: []report.Upstream{cluster}, downward: []report.Upstream{app}},
		{stack: "app", upstream: []report.Upstream{app}},
		{stack: "report", upstream: []report.Upstream{reportStack}},
		// jobs reads cluster's name, which the previewed plan of
		// cluster does not change.
		{stack: "jobs"},
	}
	for _, tt := range tests {
		t.Run(tt.stack, func(t *testing.T) {
			got := stack(t, rep, tt.stack)
			if diff := cmp.Diff(tt.upstream, got.Upstream); diff != "" {
				t.Errorf("%s.Upstream mismatch (-want +got):\n%s", tt.stack, diff)
			}
			if diff := cmp.Diff(tt.downward, got.Downstream); diff != "" {
				t.Errorf("%s.Downstream mismatch (-want +got):\n%s", tt.stack, diff)
			}
		})
	}
}

// A consumer that reads a key through try() copes with it missing: its
// removal is no break, and the consumer re-plans with its fallback.
func TestContractOptionalRead(t *testing.T) {
	t.Parallel()
	d := newDemo(t)
	testkit.EditFile(t, d.root, "flux-apps/platform-stacks/cluster/terraform/main.tf",
		"subnet_ids         = var.network.public.subnet_ids", "subnet_ids         = try(var.network.public.subnet_ids, [])")
	d.applied()
	b, err := os.ReadFile(filepath.Join(d.root, networkOutputs))
	if err != nil {
		t.Fatal(err)
	}
	kept, _, _ := strings.Cut(string(b), `output "subnet_ids"`)
	if err := os.WriteFile(filepath.Join(d.root, networkOutputs), []byte(kept), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, logs := d.reconcile(history.OperationApply)
	for name, want := range map[string]string{"network": "applied/config", "cluster": "applied/upstream"} {
		if got := results(rep)[name]; got != want {
			t.Errorf("%s = %s, want %s\nlogs:\n%s", name, got, want, logs)
		}
	}
}

// A consumer whose code is in .tofu files, and a producer whose outputs
// are, are checked as .tf code is: tofu reads main.tofu in place of
// main.tf, and so does the contract check.
func TestContractBreakInTofuFiles(t *testing.T) {
	d := newDemo(t)
	const (
		clusterTF = "flux-apps/platform-stacks/cluster/terraform/main.tf"
		outputs   = "flux-apps/platform-stacks/network/terraform/outputs.tofu"
	)
	if err := os.Rename(filepath.Join(d.root, clusterTF), filepath.Join(d.root, strings.TrimSuffix(clusterTF, ".tf")+".tofu")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(d.root, networkOutputs), filepath.Join(d.root, outputs)); err != nil {
		t.Fatal(err)
	}
	// A main.tf beside main.tofu is not read, by tofu or by the check.
	testkit.WriteFile(t, filepath.Join(d.root, clusterTF), "this is not HCL, and tofu never reads it {\n")
	d.applied()
	b, err := os.ReadFile(filepath.Join(d.root, outputs))
	if err != nil {
		t.Fatal(err)
	}
	kept, _, ok := strings.Cut(string(b), `output "subnet_ids"`)
	if !ok {
		t.Fatalf("%s has no output subnet_ids", outputs)
	}
	if err := os.WriteFile(filepath.Join(d.root, outputs), []byte(kept), 0o644); err != nil {
		t.Fatal(err)
	}
	const where = "flux-apps/platform-stacks/cluster/terraform/main.tofu:14"
	rep, logs := d.reconcile(history.OperationApply)
	network := stack(t, rep, "network")
	if network.Result != history.ResultHeld || network.Cause != runner.CauseContractBreak {
		t.Fatalf("network = %s/%s, want held/contract-break\nlogs:\n%s", network.Result, network.Cause, logs)
	}
	if want := "read by cluster at " + where; !strings.Contains(network.Message, want) {
		t.Errorf("network's message %q does not say %q", network.Message, want)
	}
}
