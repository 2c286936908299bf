package reconcile_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/flux"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/internal/testrepo"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/source/oci"
	"github.com/strata-iac/strata/orchestrator/source/oci/ocitest"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

func TestReconcileOCISources(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	reg := ocitest.Start(t)
	root := testrepo.Fixture(t, "oci")
	state := t.TempDir()
	client := oci.New(oci.Options{CacheDir: t.TempDir(), Insecure: []string{reg.Host}})
	for _, v := range []struct{ dir, tag string }{{"v1", "0.1.0"}, {"v2", "0.2.0"}, {"v2", "0.3.0-rc.1"}} {
		if _, err := client.Push(ctx, filepath.Join(root, "stacks", "svc", v.dir), reg.URL("iac/svc")+":"+v.tag,
			oci.PushMeta{Source: "https://example.com/svc", Revision: v.tag}); err != nil {
			t.Fatalf("Push(%s) = %v", v.tag, err)
		}
	}
	const initFile, versionsFile = "environments/acme/stage/init.yaml", "environments/acme/stage/services/_versions.yaml"
	testkit.EditFile(t, root, initFile, "127.0.0.1:5000", reg.Host)
	dir := filepath.Join(root, "environments", "acme", "stage")
	apply := func() (*report.Report, string) {
		t.Helper()
		var logs testkit.Buffer
		rep, err := reconcile.Reconcile(ctx, dir, history.OperationApply, reconcile.Options{
			Tofu: tofutest.Binary(t), StateDir: state, DriftInterval: time.Hour, Logger: runlog.New(&logs, nil),
		})
		if err != nil {
			t.Fatalf("Reconcile(%q) = %v\nlogs:\n%s", dir, err, logs.String())
		}
		return rep, logs.String()
	}

	// The exact version is pulled, and reaches tofu as var.app_version.
	rep, logs := apply()
	svc := stack(t, rep, "svc")
	if svc.Result != history.ResultApplied || svc.Version != "0.1.0" || !strings.HasPrefix(svc.Digest, "sha256:") ||
		!strings.Contains(svc.Origin, "/iac/svc:0.1.0@sha256:") {
		t.Fatalf("first apply: svc = %+v, want 0.1.0 applied from the registry\nlogs:\n%s", svc, logs)
	}
	if doc := readContract(t, state, "acme", "stage", "svc"); doc.Public["app_version"] != "0.1.0" {
		t.Errorf("svc contract public = %v, want app_version 0.1.0", doc.Public)
	}

	// A range picks the highest release, not the prerelease it excludes,
	// and the move is an upgrade.
	testkit.EditFile(t, root, versionsFile, `"0.1.0"`, `"~> 0.2"`)
	rep, logs = apply()
	svc = stack(t, rep, "svc")
	if svc.Result != history.ResultApplied || svc.Cause != runner.CauseUpgrade || svc.Version != "0.2.0" {
		t.Fatalf("upgrade: svc = %+v, want upgraded to 0.2.0\nlogs:\n%s", svc, logs)
	}
	if !strings.Contains(logs, "INFO [svc] upgrading the infrastructure from version 0.1.0 to 0.2.0") {
		t.Errorf("upgrade: logs lack the seed's upgrade line:\n%s", logs)
	}
	runs := historyOf(t, root, state, "acme", "stage", "svc")
	if got := [2]string{runs[0].FromVersion, runs[0].ToVersion}; got != [2]string{"0.1.0", "0.2.0"} {
		t.Errorf("upgrade: history from/to = %v, want [0.1.0 0.2.0]", got)
	}

	// The versions report: asked for, resolved, applied, current.
	rows, err := reconcile.Versions(ctx, dir, reconcile.Options{StateDir: state})
	if err != nil {
		t.Fatalf("Versions(%q) = %v", dir, err)
	}
	for _, r := range rows {
		if r.Stack != "svc" {
			continue
		}
		if r.Constraint != "~> 0.2" || r.Resolved != "0.2.0" || r.Applied != "0.2.0" || !r.Current || r.LastResult != history.ResultApplied {
			t.Errorf("Versions(%q) svc = %+v, want ~> 0.2 resolved and applied at 0.2.0, current", dir, r)
		}
	}

	// A prerelease only when the constraint allows it. (Flux substitutes
	// the built YAML, where a value starting with ">" would begin a folded
	// block: the constraint is written so that it stays a plain string.)
	testkit.EditFile(t, root, versionsFile, `"~> 0.2"`, `"^0.3.0-0"`)
	rep, logs = apply()
	if svc = stack(t, rep, "svc"); svc.Version != "0.3.0-rc.1" || svc.Cause != runner.CauseUpgrade {
		t.Errorf("prerelease: svc = %s %s, want upgraded to 0.3.0-rc.1\nlogs:\n%s", svc.Version, svc.Cause, logs)
	}

	// With the registry down, the stack and its dependents do not run, the
	// error names the stack, the URL and the constraint, and the others
	// still run.
	reg.Stop()
	testkit.EditFile(t, root, "flux-apps/services/other/terraform/main.tf", "var.client_id\n}\n\noutput", "\"${var.client_id}-2\"\n}\n\noutput")
	rep, logs = apply()
	got := map[string]string{}
	for _, s := range rep.Stacks {
		got[s.Stack] = string(s.Result)
	}
	if diff := cmp.Diff(map[string]string{"base": "unchanged", "svc": "failed", "edge": "skipped", "other": "applied"}, got); diff != "" {
		t.Errorf("registry down: results diff (-want +got):\n%s\nlogs:\n%s", diff, logs)
	}
	msg := stack(t, rep, "svc").Message
	for _, want := range []string{"stack svc", "oci://" + reg.Host + "/iac/svc", `semver "^0.3.0-0"`, "unreachable"} {
		if !strings.Contains(msg, want) {
			t.Errorf("registry down: svc message %q lacks %q", msg, want)
		}
	}

	// A registry that accepts the connection and never answers: the
	// source's spec.timeout ends the wait, only what depends on it waits
	// that long, and the others run.
	dead := testkit.DeadListener(t)
	testkit.EditFile(t, root, initFile, reg.Host, dead)
	testkit.EditFile(t, root, "flux-apps/services/svc/terraform.yaml", "  insecure: true\n", "  insecure: true\n  timeout: 1s\n")
	testkit.EditFile(t, root, "flux-apps/services/other/terraform/main.tf", "-2\"", "-3\"")
	start := time.Now()
	rep, logs = apply()
	took := time.Since(start)
	got = map[string]string{}
	for _, s := range rep.Stacks {
		got[s.Stack] = string(s.Result)
	}
	if diff := cmp.Diff(map[string]string{"base": "unchanged", "svc": "failed", "edge": "skipped", "other": "applied"}, got); diff != "" {
		t.Errorf("registry silent: results diff (-want +got):\n%s\nlogs:\n%s", diff, logs)
	}
	msg = stack(t, rep, "svc").Message
	for _, want := range []string{"stack svc", "oci://" + dead + "/iac/svc", "no answer within 1s"} {
		if !strings.Contains(msg, want) {
			t.Errorf("registry silent: svc message %q lacks %q", msg, want)
		}
	}
	t.Logf("registry silent: the apply took %v", took)
}

// historyOf returns a stack's runs, newest first.
func historyOf(t *testing.T, root, state, client, envName, name string) []history.Run {
	t.Helper()
	ctx := context.Background()
	env, err := flux.Load(ctx, filepath.Join(root, "environments", client, envName))
	if err != nil {
		t.Fatal(err)
	}
	set, err := reconcile.Options{StateDir: state}.Settings(env)
	if err != nil {
		t.Fatal(err)
	}
	st, err := envstores.OpenStores(ctx, env, set, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, err := st.History.List(ctx, env.Client, env.Name, name, 0)
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

// TestDemoStage applies the example repository's OCI-sourced environment:
// its service stacks are released to a real registry first, as a user
// would with strata push.
func TestDemoStage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	reg := ocitest.Start(t)
	root := t.TempDir()
	for _, d := range []string{"environments", "flux-apps"} {
		testkit.CopyInto(t, filepath.Join(root, d), filepath.Join("..", "..", d))
	}
	client := oci.New(oci.Options{CacheDir: t.TempDir(), Insecure: []string{reg.Host}})
	for _, svc := range []string{"api", "worker"} {
		if _, err := client.Push(ctx, filepath.Join(root, "flux-apps", "service-stacks", svc, "terraform"), reg.URL("iac/"+svc)+":0.1.0",
			oci.PushMeta{Source: "https://example.com/demo", Revision: "0.1.0"}); err != nil {
			t.Fatalf("Push(%s) = %v", svc, err)
		}
	}
	testkit.EditFile(t, root, "environments/demo/stage/init.yaml", "127.0.0.1:5000", reg.Host)
	dir := filepath.Join(root, "environments", "demo", "stage")
	var logs testkit.Buffer
	rep, err := reconcile.Reconcile(ctx, dir, history.OperationApply, reconcile.Options{
		Tofu: tofutest.Binary(t), StateDir: t.TempDir(), Logger: runlog.New(&logs, nil),
	})
	if err != nil {
		t.Fatalf("Reconcile(%q) = %v\nlogs:\n%s", dir, err, logs.String())
	}
	for _, s := range rep.Stacks {
		if s.Result != history.ResultApplied {
			t.Errorf("demo/stage %s = %s (%s), want applied\nlogs:\n%s", s.Stack, s.Result, s.Message, logs.String())
		}
	}
	for _, svc := range []string{"api", "worker"} {
		if s := stack(t, rep, svc); s.Version != "0.1.0" || !strings.HasPrefix(s.Origin, "oci://"+reg.Host+"/iac/"+svc+":0.1.0@sha256:") {
			t.Errorf("demo/stage %s = %s from %s, want 0.1.0 from the registry", svc, s.Version, s.Origin)
		}
	}
}
