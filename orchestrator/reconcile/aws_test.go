package reconcile_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/strata-iac/strata/contracts/awstest"
	"github.com/strata-iac/strata/contracts/ssm"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/internal/testrepo"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// TestDemoProdOnAWSServices applies the example repository's production
// environment as it is committed (contracts in SSM, state in S3 with
// native locking) against SSM and S3 servers running on this machine.
func TestDemoProdOnAWSServices(t *testing.T) {
	ctx := context.Background()
	ssmEndpoint := awstest.Moto(t)
	s3Endpoint, access, secret := awstest.Versitygw(t)
	awstest.Env(t, access, secret)
	awstest.CreateBucket(t, s3Endpoint, "demo-terraform-states")

	root := t.TempDir()
	for _, d := range []string{"environments", "flux-apps"} {
		testkit.CopyInto(t, filepath.Join(root, d), filepath.Join("..", "..", d))
	}
	initFile := filepath.Join(root, "environments", "demo", "prod", "init.yaml")
	f, err := os.OpenFile(initFile, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("  contractEndpoint: \"" + ssmEndpoint + "\"\n  stateEndpoint: \"" + s3Endpoint + "\"\n  stateRegion: \"" + awstest.Region + "\"\n")
	f.Close()

	dir := filepath.Join(root, "environments", "demo", "prod")
	var logs testkit.Buffer
	state := t.TempDir()
	rep, err := reconcile.Reconcile(ctx, dir, history.OperationApply, reconcile.Options{
		Tofu: tofutest.Binary(t), StateDir: state, Logger: runlog.New(&logs, nil),
	})
	if err != nil {
		t.Fatalf("Reconcile(%q) = %v\nlogs:\n%s", dir, err, logs.String())
	}
	for _, s := range rep.Stacks {
		if s.Result != history.ResultApplied || s.Contract != "/configuration/"+s.Stack {
			t.Errorf("demo/prod %s = %s %s (%s), want applied with contract /configuration/%s\nlogs:\n%s", s.Stack, s.Result, s.Contract, s.Message, s.Stack, logs.String())
		}
	}

	// State went to S3 under the seed's key, not to the state directory.
	for _, stack := range []string{"account", "network", "cluster", "api", "worker"} {
		if !awstest.ObjectExists(t, s3Endpoint, "demo-terraform-states", "demo/prod/stacks/"+stack+".tfstate") {
			t.Errorf("no state object demo/prod/stacks/%s.tfstate in the bucket", stack)
		}
	}
	if _, err := os.Stat(filepath.Join(state, "state")); !os.IsNotExist(err) {
		t.Errorf("local state directory exists (stat = %v), want all state in S3", err)
	}

	// Contracts are in SSM, where External Secrets reads them.
	store, err := ssm.New(ctx, ssm.Config{Region: "eu-central-1", Endpoint: ssmEndpoint})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := store.Get(ctx, "/configuration/api")
	if err != nil {
		t.Fatalf("Get(/configuration/api) = %v", err)
	}
	if v, ok := doc.Lookup("private.database_password"); !ok || v == "" {
		t.Errorf("api contract private.database_password = %v, %v, want the sensitive output", v, ok)
	}
	if _, ok := doc.Public["database_password"]; ok || strings.Contains(logs.String(), doc.Private["database_password"].(string)) {
		t.Errorf("api's sensitive output is public or logged")
	}

	// A lock held by another process is reported as such, with its ID, and
	// nothing runs on that state.
	awstest.PutObject(t, s3Endpoint, "demo-terraform-states", "demo/prod/stacks/account.tfstate.tflock",
		`{"ID":"5a1e5b1c-held-by-someone-else","Operation":"OperationTypeApply","Who":"ana@laptop","Version":"1.10.6","Path":"demo-terraform-states/demo/prod/stacks/account.tfstate"}`)
	rep, err = reconcile.Reconcile(ctx, dir, history.OperationApply, reconcile.Options{Tofu: tofutest.Binary(t), StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	if got := stack(t, rep, "account"); got.Result != history.ResultFailed || !strings.Contains(got.Message, "locked by another process") ||
		!strings.Contains(got.Message, "5a1e5b1c-held-by-someone-else") {
		t.Errorf("locked state: account = %s (%s), want failed naming the lock and its ID", got.Result, got.Message)
	}
	awstest.DeleteObject(t, s3Endpoint, "demo-terraform-states", "demo/prod/stacks/account.tfstate.tflock")

	// A second reconcile finds nothing to do.
	rep, err = reconcile.Reconcile(ctx, dir, history.OperationApply, reconcile.Options{Tofu: tofutest.Binary(t), StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rep.Stacks {
		if s.Stack == "account" && s.Result == history.ResultApplied {
			continue // it re-plans after the failed run
		}
		if s.Result != history.ResultNoChanges {
			t.Errorf("second apply %s = %s, want no-changes", s.Stack, s.Result)
		}
	}
}

// TestSeedBackendConfigOnS3 runs the seed's own form of remote state: each
// Terraform object carries backendConfig.customConfiguration with an S3
// backend keyed ${clientId}/${environment}/stacks/<stack>.tfstate and
// native locking, substituted from the init ConfigMap.
func TestSeedBackendConfigOnS3(t *testing.T) {
	ctx := context.Background()
	endpoint, access, secret := awstest.Versitygw(t)
	awstest.Env(t, access, secret)
	awstest.CreateBucket(t, endpoint, "terraform-states")
	root := testrepo.Fixture(t, "layered")
	stacks := map[string]string{
		"base": "platform-stacks", "net": "platform-stacks", "cluster": "platform-stacks",
		"app": "service-stacks", "jobs": "service-stacks", "report": "service-stacks",
	}
	for name, kind := range stacks {
		testkit.EditFile(t, root, "flux-apps/"+kind+"/"+name+"/terraform.yaml", "spec:\n", `spec:
  backendConfig:
    customConfiguration: |
      backend "s3" {
        region                      = "${s3Region}"
        bucket                      = "terraform-states"
        key                         = "${clientId}/${environment}/stacks/`+name+`.tfstate"
        encrypt                     = true
        use_lockfile                = true
        endpoints                   = { s3 = "${s3Endpoint}" }
        use_path_style              = true
        skip_credentials_validation = true
        skip_requesting_account_id  = true
        skip_metadata_api_check     = true
        skip_region_validation      = true
      }
`)
	}
	testkit.EditFile(t, root, "environments/acme/dev/init.yaml", "  region: eu-west-1\n",
		"  region: eu-west-1\n  s3Region: "+awstest.Region+"\n  s3Endpoint: "+endpoint+"\n")

	dir := filepath.Join(root, "environments", "acme", "dev")
	var logs testkit.Buffer
	state := t.TempDir()
	rep, err := reconcile.Reconcile(ctx, dir, history.OperationApply, reconcile.Options{
		Tofu: tofutest.Binary(t), StateDir: state, Logger: runlog.New(&logs, nil),
	})
	if err != nil {
		t.Fatalf("Reconcile(%q) = %v\nlogs:\n%s", dir, err, logs.String())
	}
	for _, s := range rep.Stacks {
		if s.Result != history.ResultApplied {
			t.Errorf("%s = %s (%s), want applied\nlogs:\n%s", s.Stack, s.Result, s.Message, logs.String())
		}
	}
	for name := range stacks {
		if !awstest.ObjectExists(t, endpoint, "terraform-states", "acme/dev/stacks/"+name+".tfstate") {
			t.Errorf("no state object acme/dev/stacks/%s.tfstate: every stack's state key is its own", name)
		}
	}

	// A state changed behind strata's back in the stack's own S3 backend
	// is seen, as it is for local state: the stack is planned with cause
	// drift, and the others stay unchanged.
	cmd := exec.Command(tofutest.Binary(t), "state", "rm", "terraform_data.account")
	cmd.Dir = filepath.Join(state, "work", "acme", "dev", "base")
	cmd.Env = append(os.Environ(), "TF_IN_AUTOMATION=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tofu state rm = %v\n%s", err, out)
	}
	logs = testkit.Buffer{}
	rep, err = reconcile.Reconcile(ctx, dir, history.OperationApply, reconcile.Options{
		Tofu: tofutest.Binary(t), StateDir: state, Logger: runlog.New(&logs, nil), DriftInterval: time.Hour,
	})
	if err != nil {
		t.Fatalf("Reconcile(%q) = %v\nlogs:\n%s", dir, err, logs.String())
	}
	got := map[string]string{}
	for _, s := range rep.Stacks {
		got[s.Stack] = string(s.Result) + "/" + s.Cause
	}
	want := map[string]string{
		"base": "applied/drift", "net": "unchanged/", "cluster": "unchanged/",
		"app": "unchanged/", "jobs": "unchanged/", "report": "unchanged/",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after tofu state rm in base's S3 backend, results (-want +got):\n%s\nlogs:\n%s", diff, logs.String())
	}
	if !regexp.MustCompile(`INFO \[base\] state changed outside strata: serial \d+ → \d+`).MatchString(logs.String()) {
		t.Errorf("logs lack base's state change line\nlogs:\n%s", logs.String())
	}
}
