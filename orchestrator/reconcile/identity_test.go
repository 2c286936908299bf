package reconcile_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/internal/testrepo"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
	"github.com/strata-iac/strata/orchestrator/validate"
)

// copyEnv copies the environment acme/dev of root to environments/<client>/<env>
// with the given clientId.
func copyEnv(t *testing.T, root, client, env, clientID string) string {
	t.Helper()
	dst := filepath.Join(root, "environments", client, env)
	testkit.CopyInto(t, dst, filepath.Join(root, "environments", "acme", "dev"))
	testrepo.SetInit(t, root, client, env, "clientId", clientID)
	return dst
}

// TestIdentityIsTheDirectory is the case: environments/client-a/stage
// says clientId client-b, which is environments/client-b/stage's. Neither
// validates, and nothing runs.
func TestIdentityIsTheDirectory(t *testing.T) {
	t.Parallel()
	root := testrepo.Fixture(t, "layered")
	b := copyEnv(t, root, "client-b", "stage", "client-b")
	a := copyEnv(t, root, "client-a", "stage", "client-b")
	for _, e := range []struct{ dir, other string }{{a, "environments/client-b/stage"}, {b, "environments/client-a/stage"}} {
		_, _, err := validate.Environment(context.Background(), e.dir)
		var ps diag.Problems
		if !errors.As(err, &ps) || len(ps) != 1 || !strings.Contains(ps[0].Message, `clientId "client-b" and environment "dev" are also those of `+e.other) {
			t.Errorf("Validate(%s) = %v, want one problem naming %s", e.dir, err, e.other)
		}
	}
	state := t.TempDir()
	_, err := reconcile.Reconcile(context.Background(), a, history.OperationApply, reconcile.Options{StateDir: state, Timeout: time.Minute})
	if err == nil || !strings.Contains(err.Error(), "environments/client-b/stage") {
		t.Errorf("Reconcile(%s) = %v, want the problem naming environments/client-b/stage", a, err)
	}
	if _, err := os.Stat(filepath.Join(state, "state")); !os.IsNotExist(err) {
		t.Errorf("Reconcile(%s) wrote state (%v), want nothing run", a, err)
	}
}

// TestStateKeyOfAnotherEnvironment gives a stack a customConfiguration
// whose state key every environment shares: the first environment to
// apply owns it, and another is refused, naming both, before anything runs.
func TestStateKeyOfAnotherEnvironment(t *testing.T) {
	t.Parallel()
	root := testrepo.Fixture(t, "layered")
	shared := filepath.Join(t.TempDir(), "shared.tfstate")
	tf := filepath.Join(root, "flux-apps", "service-stacks", "report", "terraform.yaml")
	b, err := os.ReadFile(tf)
	if err != nil {
		t.Fatal(err)
	}
	b = []byte(strings.Replace(string(b), "spec:\n", "spec:\n  backendConfig:\n    customConfiguration: |\n      backend \"local\" {\n        path = \""+shared+"\"\n      }\n", 1))
	if err := os.WriteFile(tf, b, 0o644); err != nil {
		t.Fatal(err)
	}
	beta := copyEnv(t, root, "beta", "dev", "beta")
	e := &env{t: t, root: root, state: t.TempDir(), tofu: tofutest.Binary(t)}
	if rep, logs := e.reconcile(history.OperationApply, time.Hour); !rep.Converged() {
		t.Fatalf("apply of acme/dev failed:\n%s", logs)
	}
	before, err := os.ReadFile(shared)
	if err != nil {
		t.Fatalf("acme/dev's report wrote no state at %s: %v", shared, err)
	}
	_, err = reconcile.Reconcile(context.Background(), beta, history.OperationApply, reconcile.Options{Tofu: e.tofu, StateDir: e.state, Timeout: time.Minute})
	want := "environment environments/beta/dev (beta/dev) would act on another environment's infrastructure: state:local:path=" + shared + " is environments/acme/dev's"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Reconcile(beta/dev) = %v, want an error containing %q", err, want)
	}
	if after, err := os.ReadFile(shared); err != nil || string(after) != string(before) {
		t.Errorf("beta/dev changed acme/dev's state (%v)", err)
	}
}
