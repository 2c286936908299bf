package reconcile_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/internal/testrepo"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
	"github.com/strata-iac/strata/registry-mirror/mirrortest/providermirror"
)

// TestProvidersFromMirror runs a stack whose provider comes from strata's
// provider mirror, and counts what the mirror serves: the provider is
// downloaded once, and no later reconcile downloads it again, not even
// when the stack's code changes and init runs again.
func TestProvidersFromMirror(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a provider")
	}
	ctx := context.Background()
	srv := providermirror.Serve(t, "0.1.0")

	root := testrepo.Fixture(t, "mirror")
	dir := filepath.Join(root, "environments", "acme", "dev")
	state := t.TempDir()
	reconcile := func() *report.Report {
		t.Helper()
		var logs testkit.Buffer
		rep, err := reconcile.Reconcile(ctx, dir, history.OperationApply, reconcile.Options{
			Tofu: tofutest.Binary(t), StateDir: state, DriftInterval: 0, Logger: runlog.New(&logs, nil),
			ProviderMirror: srv.URL, ProviderMirrorCA: srv.Certs.CAFile,
		})
		if err != nil || !rep.Converged() {
			t.Fatalf("Reconcile(%q) = %v\nlogs:\n%s", dir, err, logs.String())
		}
		return rep
	}
	zips := func() int {
		n := 0
		for _, r := range srv.Requests() {
			if strings.HasSuffix(r.Path, ".zip") {
				n++
			}
		}
		return n
	}

	rep := reconcile()
	if got := stack(t, rep, "echo"); got.Result != history.ResultApplied {
		t.Fatalf("echo = %s (%s), want applied", got.Result, got.Message)
	}
	if doc := readContract(t, state, "acme", "dev", "echo"); doc.Public["echo"] != "hello from acme" {
		t.Errorf("echo contract public = %v, want the provider's output", doc.Public)
	}
	if n := zips(); n != 1 {
		t.Errorf("first reconcile downloaded the provider %d times, want 1", n)
	}

	srv.Reset()
	reconcile() // a drift check: plans again
	testkit.EditFile(t, root, "flux-apps/echo/terraform/main.tf", "output \"echo\" {", "output \"greeting\" {\n  value = var.greeting\n}\n\noutput \"echo\" {")
	if got := stack(t, reconcile(), "echo"); got.Cause != runner.CauseConfig {
		t.Errorf("after a code change echo cause = %q, want config", got.Cause)
	}
	if n := zips(); n != 0 {
		t.Errorf("later reconciles downloaded the provider %d times, want 0: it is in the plugin cache", n)
	}
}
