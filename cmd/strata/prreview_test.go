package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/contracts/awstest"
	"github.com/strata-iac/strata/contracts/stores"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/change"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// fleetEnvs are the environments of testdata/fleet: three clients, two
// environments each, sharing shared/versions/_versions.yaml and the base
// overlays of flux-apps/base.
var fleetEnvs = []string{"acme/dev", "acme/prod", "beta/dev", "beta/prod", "gamma/dev", "gamma/prod"}

// fleet is a git repository of testdata/fleet whose base is committed on
// main and pushed to a bare origin, its environments applied to a state
// directory.
type fleet struct {
	t           *testing.T
	root, state string
	tofu        string
}

func newFleet(t *testing.T) *fleet {
	t.Helper()
	return newFleetOf(t, fleetEnvs, nil)
}

// newFleetOf is a fleet whose environments envs are applied, with
// settings edited into the base before it is committed (edit may be nil)
// and run given to every apply.
func newFleetOf(t *testing.T, envs []string, edit func(root string), run ...string) *fleet {
	t.Helper()
	f := &fleet{t: t, root: testkit.Copy(t, filepath.Join("testdata", "fleet")), state: t.TempDir(), tofu: tofutest.Binary(t)}
	if edit != nil {
		edit(f.root)
	}
	f.git("init", "--quiet", "--initial-branch", "main")
	f.git("add", "-A")
	f.git("commit", "--quiet", "-m", "base")
	origin := filepath.Join(t.TempDir(), "origin.git")
	f.git("clone", "--quiet", "--bare", f.root, origin)
	f.git("remote", "add", "origin", origin)
	f.git("fetch", "--quiet", "origin")
	for _, e := range envs {
		if out, errOut, code := strata(t, append([]string{"apply", f.env(e), "--tofu", f.tofu, "--state-dir", f.state}, run...)...); code != 0 {
			t.Fatalf("strata apply %s exit code = %d\nstdout:\n%s\nstderr:\n%s", e, code, out, errOut)
		}
	}
	return f
}

func (f *fleet) env(e string) string {
	return filepath.Join(f.root, "environments", filepath.FromSlash(e))
}

// git runs git in the repository, as a person with no configuration of
// their own.
func (f *fleet) git(args ...string) string {
	f.t.Helper()
	return testkit.Git(f.t, f.root, args...)
}

// pullRequest starts a branch off main, edits it and commits: the pull
// request under review, checked out.
func (f *fleet) pullRequest(name string, edit func()) {
	f.t.Helper()
	f.git("checkout", "--quiet", "main")
	f.git("checkout", "--quiet", "-b", name)
	edit()
	f.git("add", "-A")
	f.git("commit", "--quiet", "-m", name)
}

// diff runs strata diff --base main in the repository and returns the
// report and the exit code.
func (f *fleet) diff(t *testing.T) (*change.Report, int) {
	t.Helper()
	t.Chdir(f.root)
	out, errOut, code := strata(t, "diff", "--base", "main", "-o", "json")
	var d change.Report
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("strata diff -o json = %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	return &d, code
}

// planReport is what plan --base -o json prints.
type planReport struct {
	Base         string           `json:"base"`
	Environments []change.EnvPlan `json:"environments"`
}

func (f *fleet) plan(t *testing.T, args ...string) (planReport, int, string) {
	t.Helper()
	t.Chdir(f.root)
	out, errOut, code := strata(t, append([]string{"plan", "--base", "main", "--tofu", f.tofu, "--state-dir", f.state, "-o", "json"}, args...)...)
	var p planReport
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("strata plan --base -o json = %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	return p, code, out + errOut
}

// changes lists, for each environment, "stack:cause" of every stack that
// changes.
func changes(d *change.Report) map[string][]string {
	out := map[string][]string{}
	for _, e := range d.Environments {
		for _, s := range e.Stacks {
			out[e.Identity()] = append(out[e.Identity()], s.Stack+":"+s.Cause)
		}
	}
	return out
}

func every(stacks ...string) map[string][]string {
	out := map[string][]string{}
	for _, e := range fleetEnvs {
		out[e] = stacks
	}
	return out
}

// results lists, for each environment that was planned, "stack:result".
func results(p planReport) map[string][]string {
	out := map[string][]string{}
	for _, e := range p.Environments {
		if e.Report == nil {
			continue
		}
		for _, s := range e.Report.Stacks {
			out[e.Identity()] = append(out[e.Identity()], s.Stack+":"+string(s.Result))
		}
	}
	return out
}

func TestPullRequestReview(t *testing.T) {
	f := newFleet(t)

	t.Run("a shared version bump reaches every environment, and only its stack is planned", func(t *testing.T) {
		f.pullRequest("bump", func() {
			testkit.EditFile(t, f.root, "shared/versions/_versions.yaml", `version_app_tf: "0.1.0"`, `version_app_tf: "0.2.0"`)
		})
		d, code := f.diff(t)
		if code != exitChanges {
			t.Errorf("strata diff exit code = %d, want %d", code, exitChanges)
		}
		if diff := cmp.Diff(every("app:version"), changes(d)); diff != "" {
			t.Errorf("strata diff changes (-want +got):\n%s", diff)
		}
		for _, e := range d.Environments {
			if s := e.Stack("app"); s == nil || s.From != "0.1.0" || s.To != "0.2.0" {
				t.Errorf("strata diff %s app = %+v, want from 0.1.0 to 0.2.0", e.Dir, s)
			}
		}
		p, code, out := f.plan(t)
		if code != exitConverged {
			t.Errorf("strata plan --base exit code = %d, want 0\n%s", code, out)
		}
		if diff := cmp.Diff(every("network:unchanged", "app:planned"), results(p)); diff != "" {
			t.Errorf("strata plan --base results (-want +got):\n%s", diff)
		}
		for _, e := range p.Environments {
			for _, s := range e.Report.Stacks {
				if s.Stack == "network" && (s.Run != 0 || s.Message != report.NotSelected) {
					t.Errorf("plan --base %s network = run %d %q, want no run: %q", e.Dir, s.Run, s.Message, report.NotSelected)
				}
				if s.Stack == "app" && (s.Cause != "upgrade" || s.Summary.Change != 1) {
					t.Errorf("plan --base %s app = cause %q, %+v; want upgrade, 1 to change", e.Dir, s.Cause, s.Summary)
				}
			}
		}
	})

	t.Run("an overlay change on one client lists that client's stacks only", func(t *testing.T) {
		f.pullRequest("overlay", func() {
			testkit.EditFile(t, f.root, "flux-apps/clients/beta/app/kustomization.yaml", "value: medium", "value: large")
		})
		d, code := f.diff(t)
		if code != exitChanges {
			t.Errorf("strata diff exit code = %d, want %d", code, exitChanges)
		}
		want := map[string][]string{"beta/dev": {"app:variables"}, "beta/prod": {"app:variables"}}
		if diff := cmp.Diff(want, changes(d)); diff != "" {
			t.Errorf("strata diff changes (-want +got):\n%s", diff)
		}
		if s := d.Environments[2].Stack("app"); s == nil || s.Why != "variables changed: size" {
			t.Errorf("strata diff beta/dev app = %+v, want why %q", s, "variables changed: size")
		}
	})

	t.Run("a new output lists the producer's consumers as re-planning", func(t *testing.T) {
		f.pullRequest("new-output", func() {
			testkit.EditFile(t, f.root, "flux-apps/stacks/network/main.tf", `output "vpc_id" {`, "output \"zone\" {\n  value = \"a\"\n}\n\noutput \"vpc_id\" {")
		})
		d, code := f.diff(t)
		if code != exitChanges {
			t.Errorf("strata diff exit code = %d, want %d", code, exitChanges)
		}
		if diff := cmp.Diff(every("app:contract", "network:code"), changes(d)); diff != "" {
			t.Errorf("strata diff changes (-want +got):\n%s", diff)
		}
		for _, e := range d.Environments {
			app, network := e.Stack("app"), e.Stack("network")
			if diff := cmp.Diff([]change.Read{{Contract: "network", Producer: "network"}}, app.Reads); diff != "" {
				t.Errorf("strata diff %s app reads (-want +got):\n%s", e.Dir, diff)
			}
			if diff := cmp.Diff([]string{"app"}, network.Consumers); diff != "" {
				t.Errorf("strata diff %s network consumers (-want +got):\n%s", e.Dir, diff)
			}
		}
		comment := filepath.Join(t.TempDir(), "review.md")
		t.Chdir(f.root)
		out, errOut, code := strata(t, "plan", "--base", "main", "--tofu", f.tofu, "--state-dir", f.state, "-o", "markdown", "--comment-file", comment)
		if code != exitConverged {
			t.Errorf("strata plan --base exit code = %d, want 0\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
		}
		b, err := os.ReadFile(comment)
		if err != nil {
			t.Fatal(err)
		}
		review := string(b)
		for _, w := range []string{
			"## strata: 12 stacks in 6 environments change against main (",
			"| acme/dev | app | contract network (from network) | no-changes | - | - |\n",
			"| gamma/prod | network | code | planned | - | allowed |\n",
			"### beta/prod: network — planned (code)\n",
			"- update `output.zone`\n",
			"**Consumers that re-plan** (they read contract network): app.\n",
		} {
			if !strings.Contains(review, w) {
				t.Errorf("the review lacks %q:\n%s", w, review)
			}
		}
		if strings.Contains(review, "s3cret") || strings.Contains(out, "s3cret") {
			t.Errorf("the review shows a sensitive value:\n%s", review)
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(comment), "review.full.md")); !os.IsNotExist(err) {
			t.Errorf("a review that fits a comment has a whole review beside it: %v", err)
		}
	})

	t.Run("a removed output that a consumer reads is a contract break", func(t *testing.T) {
		f.pullRequest("contract-break", func() {
			testkit.EditFile(t, f.root, "flux-apps/stacks/network/main.tf", "output \"vpc_id\" {\n  value = terraform_data.vpc.output\n}\n", "output \"zone\" {\n  value = \"a\"\n}\n")
		})
		t.Chdir(f.root)
		out, errOut, code := strata(t, "plan", "--base", "main", "--tofu", f.tofu, "--state-dir", f.state, "-o", "markdown", "environments/acme/dev", "environments/beta/prod")
		if code != exitHeld {
			t.Errorf("strata plan --base exit code = %d, want %d\nstderr:\n%s", code, exitHeld, errOut)
		}
		for _, w := range []string{
			"## strata: 4 stacks in 2 environments change against main (",
			"| acme/dev | network | code | planned | - | held (contract-break) |\n",
			"**Contract network:** `public.vpc_id` removed; `public.zone` added;\n",
			"Held with cause `contract-break`: it breaks\n- app, which reads `public.vpc_id` at `flux-apps/stacks/app/main.tf:",
		} {
			if !strings.Contains(out, w) {
				t.Errorf("the review lacks %q:\n%s", w, out)
			}
		}
		if !strings.Contains(errOut, "apply would hold the plan of network (it breaks a consumer of its contract)") {
			t.Errorf("strata plan --base stderr does not say why it fails:\n%s", errOut)
		}
	})

	t.Run("a change strata does not read lists nothing", func(t *testing.T) {
		f.pullRequest("readme", func() {
			testkit.WriteFile(t, filepath.Join(f.root, "README.md"), "# fleet\n\nHow to add a client.\n")
		})
		d, code := f.diff(t)
		if code != exitConverged {
			t.Errorf("strata diff exit code = %d, want 0", code)
		}
		if got := changes(d); len(got) != 0 {
			t.Errorf("strata diff changes = %v, want none", got)
		}
		if len(d.Environments) != len(fleetEnvs) {
			t.Errorf("strata diff found %d environments, want %d", len(d.Environments), len(fleetEnvs))
		}
		p, code, out := f.plan(t)
		if code != exitConverged {
			t.Errorf("strata plan --base exit code = %d, want 0\n%s", code, out)
		}
		if got := results(p); len(got) != 0 {
			t.Errorf("strata plan --base planned %v, want nothing", got)
		}
	})

	t.Run("the work tree is compared as it is, and left as it is", func(t *testing.T) {
		f.git("checkout", "--quiet", "main")
		testkit.EditFile(t, f.root, "environments/gamma/dev/init.yaml", `environment: "dev"`, `environment: "dev"
  domain: "dev.gamma.example"`)
		testkit.EditFile(t, f.root, "flux-apps/base/network/terraform.yaml", `      value: "${environment}"`, `      value: "${environment}"
    - name: domain
      value: "${domain:=none}"`)
		before := f.git("status", "--porcelain")
		d, code := f.diff(t)
		if code != exitChanges {
			t.Errorf("strata diff exit code = %d, want %d", code, exitChanges)
		}
		if diff := cmp.Diff(every("app:contract", "network:variables"), changes(d)); diff != "" {
			t.Errorf("strata diff changes (-want +got):\n%s", diff)
		}
		if after := f.git("status", "--porcelain"); after != before {
			t.Errorf("git status after strata diff = %q, want %q", after, before)
		}
		if list := f.git("worktree", "list"); strings.Count(list, "\n") != 1 {
			t.Errorf("git worktree list after strata diff = %q, want the work tree alone", list)
		}
		f.git("checkout", "--quiet", "--", ".")
	})

	t.Run("ci recipes", func(t *testing.T) { testCIRecipes(t, f) })
}

func TestDiffUsage(t *testing.T) {
	root := testkit.Copy(t, filepath.Join("testdata", "fleet"))
	runCases(t, []cliCase{
		{name: "no base", args: []string{"diff", filepath.Join(root, "environments", "acme", "dev")}, wantCode: exitUsage, wantErr: []string{"diff needs --base REF"}},
		{name: "not a repository", args: []string{"diff", "--base", "main", filepath.Join(root, "environments", "acme", "dev")}, wantCode: exitFailed, wantErr: []string{"run strata in a git work tree"}},
		{name: "comment file without markdown", args: []string{"plan", "--base", "main", "--comment-file", "x.md"}, wantCode: exitUsage, wantErr: []string{"give -o markdown with it"}},
		{name: "plan without ENV nor base", args: []string{"plan"}, wantCode: exitUsage, wantErr: []string{"accepts 1 arg(s)"}},
	})
}

// TestPullRequestReviewS3 reviews a pull request in CI, where there is no
// state directory: the stacks' state is in their S3 backend, their
// contracts in an S3 store and the records in an S3 bucket (versitygw),
// all written by the applies of another machine. plan --base, from an empty state directory, plans the
// changed stack against its real state (1 to change, not a new install)
// and starts no tofu for the others.
func TestPullRequestReviewS3(t *testing.T) {
	loc := recordsBucket(t)
	endpoint := os.Getenv(stores.EnvEndpoint)
	awstest.CreateBucket(t, endpoint, "states")
	awstest.CreateBucket(t, endpoint, "contracts")
	envs := []string{"acme/dev", "beta/prod"}
	f := newFleetOf(t, envs, func(root string) {
		for _, e := range envs {
			testkit.EditFile(t, filepath.Join(root, "environments", filepath.FromSlash(e)), "init.yaml", "  clientId:",
				"  stateBackend: s3\n  stateBucket: states\n  stateRegion: "+awstest.Region+"\n  stateEndpoint: "+endpoint+"\n"+
					"  contractStore: s3\n  contractBucket: contracts\n  contractRegion: "+awstest.Region+"\n  contractEndpoint: "+endpoint+"\n  contractPathStyle: \"true\"\n  clientId:")
		}
	}, "--records", loc)
	for _, key := range []string{"acme/dev/stacks/app.tfstate", "beta/prod/stacks/network.tfstate"} {
		if !awstest.ObjectExists(t, endpoint, "states", key) {
			t.Fatalf("no state s3://states/%s after the applies, want it there", key)
		}
	}
	f.pullRequest("bump", func() {
		testkit.EditFile(t, f.root, "shared/versions/_versions.yaml", `version_app_tf: "0.1.0"`, `version_app_tf: "0.2.0"`)
	})
	t.Chdir(f.root)
	ci := t.TempDir()
	out, errOut, code := strata(t, "plan", "--base", "main", "--tofu", f.tofu, "--state-dir", ci, "--records", loc, "-o", "json",
		"environments/acme/dev", "environments/beta/prod")
	if code != exitConverged {
		t.Fatalf("strata plan --base with S3 state and records exit code = %d, want 0\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	var p planReport
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("strata plan --base -o json = %v\n%s", err, out)
	}
	want := map[string][]string{"acme/dev": {"network:unchanged", "app:planned"}, "beta/prod": {"network:unchanged", "app:planned"}}
	if diff := cmp.Diff(want, results(p)); diff != "" {
		t.Errorf("strata plan --base results (-want +got):\n%s", diff)
	}
	for _, e := range p.Environments {
		for _, s := range e.Report.Stacks {
			if s.Stack == "network" && s.Run != 0 {
				t.Errorf("plan --base %s network = run %d, want no run", e.Dir, s.Run)
			}
			if s.Stack == "app" && (s.Cause != "upgrade" || s.Summary.Add != 0 || s.Summary.Change != 1) {
				t.Errorf("plan --base %s app = cause %q, %+v; want upgrade, 1 to change and none to add: planned against the S3 state and records", e.Dir, s.Cause, s.Summary)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(ci, "history.db")); !os.IsNotExist(err) {
		t.Errorf("plan --base --records left a history.db in the state directory (%v), want the records in the bucket alone", err)
	}
}
