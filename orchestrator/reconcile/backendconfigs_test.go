package reconcile_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/contracts/awstest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/internal/testrepo"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// TestBackendConfigsFromOnS3: a stack whose S3 backend block names
// neither its bucket nor its credentials gets them, as the Tofu
// Controller gives them, from spec.backendConfigsFrom: the bucket and key
// from a ConfigMap, the access key and secret from a Secret, given to
// init as -backend-config. The credentials in strata's own environment
// are wrong, so only the Secret's can reach the bucket; they reach no
// log, report or record. So it goes when the backend block writes the
// bucket and key itself, and only the credentials come from the Secret.
func TestBackendConfigsFromOnS3(t *testing.T) {
	t.Run("bucket and key from a ConfigMap", func(t *testing.T) { backendConfigsFromOnS3(t, false) })
	t.Run("bucket and key written", func(t *testing.T) { backendConfigsFromOnS3(t, true) })
}

func backendConfigsFromOnS3(t *testing.T, written bool) {
	ctx := context.Background()
	endpoint, access, secret := awstest.Versitygw(t)
	awstest.Env(t, access, secret)
	awstest.CreateBucket(t, endpoint, "backend-states")
	t.Setenv("AWS_ACCESS_KEY_ID", "not-the-key")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "not-the-secret")

	root := testrepo.Fixture(t, "runfields")
	testkit.WriteFile(t, filepath.Join(root, "flux-apps", "app", "backend.yaml"), `apiVersion: v1
kind: ConfigMap
metadata:
  name: backend
  namespace: flux-system
data:
  bucket: backend-states
  key: acme/dev/app.tfstate
---
apiVersion: v1
kind: Secret
metadata:
  name: s3-credentials
  namespace: flux-system
stringData:
  access_key: `+access+`
  secret_key: `+secret+`
  unused: not given to init
`)
	testkit.EditFile(t, root, "flux-apps/app/kustomization.yaml", "  - creds.yaml", "  - creds.yaml\n  - backend.yaml")
	bucket, fromConfigMap := "", "\n    - kind: ConfigMap\n      name: backend"
	if written {
		bucket, fromConfigMap = "\n        bucket                      = \"backend-states\"\n        key                         = \"acme/dev/app.tfstate\"", ""
	}
	testkit.EditFile(t, root, "flux-apps/app/terraform.yaml", "  # the tests add fields here", `  backendConfig:
    customConfiguration: |
      backend "s3" {`+bucket+`
        region                      = "us-east-1"
        use_lockfile                = true
        use_path_style              = true
        endpoints                   = { s3 = "`+endpoint+`" }
        skip_credentials_validation = true
        skip_requesting_account_id  = true
        skip_metadata_api_check     = true
        skip_region_validation      = true
      }
  backendConfigsFrom:`+fromConfigMap+`
    - kind: Secret
      name: s3-credentials
      keys: [access_key, secret_key]`)

	dir := filepath.Join(root, "environments", "acme", "dev")
	state := t.TempDir()
	bin, argv := tofutest.Recording(t)
	var logs testkit.Buffer
	reconcile := func(op history.Operation) *report.Report {
		t.Helper()
		rep, err := reconcile.Reconcile(ctx, dir, op, reconcile.Options{
			Tofu: bin, StateDir: state, Logger: runlog.New(&logs, nil),
		})
		if err != nil {
			t.Fatalf("Reconcile(%s) = %v\nlogs:\n%s", op, err, logs.String())
		}
		return rep
	}
	if got := stack(t, reconcile(history.OperationApply), "app"); got.Result != history.ResultApplied {
		t.Fatalf("app = %s (%s), want applied\nlogs:\n%s", got.Result, got.Message, logs.String())
	}
	if got := stack(t, reconcile(history.OperationPlan), "app"); got.Result != history.ResultUnchanged && got.Result != history.ResultNoChanges {
		t.Errorf("app on the next plan = %s (%s), want nothing to do\nlogs:\n%s", got.Result, got.Message, logs.String())
	}

	// A new secret is a new input: the stack is planned again, and
	// init runs again with it.
	testkit.EditFile(t, root, "flux-apps/app/backend.yaml", "  secret_key: "+secret, "  secret_key: not-the-secret-either")
	got := stack(t, reconcile(history.OperationPlan), "app")
	if got.Result != history.ResultFailed || !strings.Contains(got.Message, "tofu init") {
		t.Errorf("app with a wrong secret_key = %s (%s), want failed: init must run again with the new secret\nlogs:\n%s", got.Result, got.Message, logs.String())
	}

	// The secret reaches no log, report, record or command line.
	out, _ := json.Marshal(got)
	args, err := os.ReadFile(argv)
	if err != nil {
		t.Fatal(err)
	}
	if len(tofutest.Commands(t, argv, "init")) == 0 {
		t.Errorf("no tofu init recorded in %s", argv)
	}
	for what, s := range map[string]string{"logs": logs.String(), "report": string(out), "command lines": string(args)} {
		if strings.Contains(s, secret) {
			t.Errorf("the Secret's secret_key appears in the %s", what)
		}
	}
	awstest.Env(t, access, secret)
	if !awstest.ObjectExists(t, endpoint, "backend-states", "acme/dev/app.tfstate") {
		t.Errorf("no state object acme/dev/app.tfstate in backend-states: the ConfigMap's bucket and key did not reach init")
	}
	err = filepath.WalkDir(state, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(state, p)
		if strings.Contains(string(b), secret) && !strings.HasPrefix(filepath.ToSlash(rel), "work/acme/dev/app/") {
			t.Errorf("%s holds the Secret's secret_key", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
