package reconcile_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gogit "github.com/go-git/go-git/v5"
	gitconfig "github.com/go-git/go-git/v5/config"
	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/contracts/awstest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/internal/testrepo"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/source/git/gittest"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// vpcModule is the OpenTofu code of version v of the vpc module.
func vpcModule(v string) string {
	return `variable "client_id" {
  type = string
}

resource "terraform_data" "this" {
  input = "${var.client_id}-` + v + `"
}

output "version" {
  value = "` + v + `"
}
`
}

// yamlBlock indents s as the body of a YAML block scalar.
func yamlBlock(s []byte) string {
	return "    " + strings.ReplaceAll(strings.TrimSpace(string(s)), "\n", "\n    ")
}

// TestReconcileGitAndBucketSources plans and applies, with real tofu,
// stacks whose code is in another git repository, served by Flux's own
// test server, by tag over HTTP with basic auth and by semver over SSH;
// in this repository under a second name (a GitRepository whose url is
// the checkout's remote); and in a Bucket on versitygw.
func TestReconcileGitAndBucketSources(t *testing.T) {
	ctx := context.Background()
	bin := tofutest.Binary(t)
	srv := gittest.Start(t)
	commits := srv.Repo(t, "acme/modules.git",
		gittest.Commit{Tag: "v1.0.0", Files: map[string]string{"vpc/main.tf": vpcModule("1.0.0")}},
		gittest.Commit{Tag: "v1.1.0", Files: map[string]string{"vpc/main.tf": vpcModule("1.1.0"), "vpc/docs/README.md": "left out"}},
		gittest.Commit{Tag: "v2.0.0", Files: map[string]string{"vpc/main.tf": vpcModule("2.0.0")}},
	)
	endpoint, access, secret := awstest.Versitygw(t)
	awstest.Env(t, access, secret)
	awstest.CreateBucket(t, endpoint, "iac")
	awstest.PutObject(t, endpoint, "iac", "app/vpc/main.tf", vpcModule("bucket"))

	root := testrepo.Fixture(t, "gitsources")
	r, err := gogit.PlainInit(root, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.CreateRemote(&gitconfig.RemoteConfig{Name: "origin", URLs: []string{"git@git.example:acme/platform.git"}}); err != nil {
		t.Fatal(err)
	}
	const sources = "environments/acme/stage/sources.yaml"
	testkit.EditFile(t, root, sources, "GIT_HTTP", srv.HTTP)
	testkit.EditFile(t, root, sources, "GIT_SSH", srv.SSH)
	testkit.EditFile(t, root, sources, "BUCKET_HOST", strings.TrimPrefix(endpoint, "http://"))
	testkit.WriteFile(t, filepath.Join(root, "environments", "acme", "stage", "secrets.yaml"), `apiVersion: v1
kind: Secret
metadata:
  name: modules-http
  namespace: flux-system
stringData:
  username: `+gittest.Username+`
  password: `+gittest.Password+`
---
apiVersion: v1
kind: Secret
metadata:
  name: modules-ssh
  namespace: flux-system
stringData:
  identity: |
`+yamlBlock(srv.Identity)+`
  known_hosts: |
`+yamlBlock(srv.KnownHosts)+`
---
apiVersion: v1
kind: Secret
metadata:
  name: code-s3
  namespace: flux-system
stringData:
  accesskey: `+access+`
  secretkey: `+secret+"\n")

	dir := filepath.Join(root, "environments", "acme", "stage")
	state := t.TempDir()
	run := func(op history.Operation) (*report.Report, string) {
		t.Helper()
		var logs testkit.Buffer
		rep, err := reconcile.Reconcile(ctx, dir, op, reconcile.Options{
			Tofu: bin, StateDir: state, DriftInterval: time.Hour, Logger: runlog.New(&logs, nil),
		})
		if err != nil {
			t.Fatalf("Reconcile(%q, %s) = %v\nlogs:\n%s", dir, op, err, logs.String())
		}
		if strings.Contains(logs.String(), gittest.Password) || strings.Contains(logs.String(), secret) {
			t.Errorf("Reconcile(%q, %s) logs hold a source's credentials:\n%s", dir, op, logs.String())
		}
		return rep, logs.String()
	}
	results := func(rep *report.Report) map[string]string {
		got := map[string]string{}
		for _, s := range rep.Stacks {
			got[s.Stack] = string(s.Result)
		}
		return got
	}

	rep, logs := run(history.OperationPlan)
	if diff := cmp.Diff(map[string]string{"vpc-tag": "planned", "vpc-semver": "planned", "local": "planned", "from-bucket": "planned"}, results(rep)); diff != "" {
		t.Fatalf("plan: results diff (-want +got):\n%s\nlogs:\n%s", diff, logs)
	}
	rep, logs = run(history.OperationApply)
	if diff := cmp.Diff(map[string]string{"vpc-tag": "applied", "vpc-semver": "applied", "local": "applied", "from-bucket": "applied"}, results(rep)); diff != "" {
		t.Fatalf("apply: results diff (-want +got):\n%s\nlogs:\n%s", diff, logs)
	}
	for _, want := range []struct{ stack, version, origin, output string }{
		{"vpc-tag", "v1.0.0", srv.HTTP + "/acme/modules.git@v1.0.0@sha1:" + commits[0], "1.0.0"},
		{"vpc-semver", "v1.1.0", srv.SSH + "/acme/modules.git@v1.1.0@sha1:" + commits[1], "1.1.0"},
		{"from-bucket", "", "s3://" + strings.TrimPrefix(endpoint, "http://") + "/iac@sha256:", "bucket"},
	} {
		s := stack(t, rep, want.stack)
		if s.Version != want.version || !strings.HasPrefix(s.Origin, want.origin) || !strings.HasPrefix(s.Digest, "h1:") {
			t.Errorf("apply: %s = version %q, origin %q, digest %q, want version %q from %s… with an h1 digest", want.stack, s.Version, s.Origin, s.Digest, want.version, want.origin)
		}
		if doc := readContract(t, state, "acme", "stage", want.stack); doc.Public["version"] != want.output {
			t.Errorf("apply: %s contract public = %v, want version %s", want.stack, doc.Public, want.output)
		}
	}
	if s := stack(t, rep, "local"); !strings.HasPrefix(s.Origin, "platform:") {
		t.Errorf("apply: local origin = %q, want this repository's checkout (platform:…)", s.Origin)
	}

	// Nothing changed: nothing is cloned again, and every stack is
	// unchanged.
	checkouts := filepath.Join(state, "cache", "git", "checkouts")
	before, _ := os.ReadDir(checkouts)
	rep, logs = run(history.OperationApply)
	if diff := cmp.Diff(map[string]string{"vpc-tag": "unchanged", "vpc-semver": "unchanged", "local": "unchanged", "from-bucket": "unchanged"}, results(rep)); diff != "" {
		t.Errorf("second apply: results diff (-want +got):\n%s\nlogs:\n%s", diff, logs)
	}
	after, _ := os.ReadDir(checkouts)
	if len(before) != 2 || len(after) != 2 {
		t.Errorf("checkouts in the cache = %d then %d, want the 2 commits fetched, each once", len(before), len(after))
	}
}
