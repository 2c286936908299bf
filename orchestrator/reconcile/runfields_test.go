package reconcile_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/contracts/awstest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/internal/testrepo"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// fieldsEnv is testdata/runfields: one stack, app, of two terraform_data
// resources, whose Terraform object the test gives fields.
type fieldsEnv struct {
	*env
	// argv logs the arguments of every tofu command (tofutest.Recording).
	argv string
}

func newFieldsEnv(t *testing.T) *fieldsEnv {
	bin, argv := tofutest.Recording(t)
	return &fieldsEnv{env: &env{t: t, root: testrepo.Fixture(t, "runfields"), state: t.TempDir(), tofu: bin}, argv: argv}
}

// setFields writes fields (YAML lines under spec) into app's Terraform
// object, replacing those set before.
func (e *fieldsEnv) setFields(fields string) {
	e.t.Helper()
	path := filepath.Join(e.root, "flux-apps", "app", "terraform.yaml")
	b, err := os.ReadFile(path)
	if err != nil {
		e.t.Fatal(err)
	}
	const marker = "  # the tests add fields here\n"
	text, _, _ := strings.Cut(string(b), marker)
	if err := os.WriteFile(path, []byte(text+marker+fields), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// apply reconciles with an hour's drift interval and returns app's report.
func (e *fieldsEnv) apply() (report.StackReport, string) {
	e.t.Helper()
	rep, logs := e.reconcile(history.OperationApply, time.Hour)
	return stack(e.t, rep, "app"), logs
}

// statePath is app's local state in the tofu workspace ws ("" for the
// default one).
func (e *fieldsEnv) statePath(ws string) string {
	if ws == "" {
		return filepath.Join(e.state, "state", "acme", "dev", "app.tfstate")
	}
	return filepath.Join(e.state, "state", "acme", "dev", "app.tfstate.d", ws, "terraform.tfstate")
}

// resources lists the resources of the state at path; none when it does
// not exist.
func resources(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var st struct{ Resources []struct{ Type, Name string } }
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatalf("parse state %s: %v", path, err)
	}
	var out []string
	for _, r := range st.Resources {
		out = append(out, r.Type+"."+r.Name)
	}
	slices.Sort(out)
	return out
}

// hasFlag reports whether every tofu command verb ran carries flag, and
// there was at least one.
func hasFlag(t *testing.T, argv, verb, flag string) bool {
	t.Helper()
	cmds := tofutest.Commands(t, argv, verb)
	for _, c := range cmds {
		if !slices.Contains(c, flag) {
			return false
		}
	}
	return len(cmds) > 0
}

var both = []string{"terraform_data.a", "terraform_data.b"}

// TestTerraformRunFields backs the rows of docs/terraform-fields.md for the Terraform fields
// that change how tofu runs a stack, with real tofu and terraform_data.
func TestTerraformRunFields(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		run  func(t *testing.T, e *fieldsEnv)
	}{
		{"targets: only the targeted resource is created", func(t *testing.T, e *fieldsEnv) {
			e.setFields("  targets:\n    - terraform_data.a\n")
			got, logs := e.apply()
			if got.Result != history.ResultApplied {
				t.Fatalf("apply: app = %+v, want applied\nlogs:\n%s", got, logs)
			}
			if diff := cmp.Diff([]string{"terraform_data.a"}, resources(t, e.statePath(""))); diff != "" {
				t.Errorf("state resources diff (-want +got):\n%s", diff)
			}
			for _, verb := range []string{"plan", "apply"} {
				if !hasFlag(t, e.argv, verb, "-target=terraform_data.a") {
					t.Errorf("tofu %s ran without -target=terraform_data.a: %q", verb, tofutest.Commands(t, e.argv, verb))
				}
			}
			// Without targets, the rest is planned: the spec change is the
			// cause, and it names the field.
			e.setFields("")
			got, logs = e.apply()
			if got.Result != history.ResultApplied || got.Why != "the stack's spec changed: spec.targets" {
				t.Errorf("apply without targets: app = %s (%q), want applied because spec.targets changed\nlogs:\n%s", got.Result, got.Why, logs)
			}
			if diff := cmp.Diff(both, resources(t, e.statePath(""))); diff != "" {
				t.Errorf("state resources without targets diff (-want +got):\n%s", diff)
			}
		}},
		{"parallelism: the flag reaches tofu's plan and apply", func(t *testing.T, e *fieldsEnv) {
			e.setFields("  parallelism: 3\n")
			if got, logs := e.apply(); got.Result != history.ResultApplied {
				t.Fatalf("apply: app = %+v, want applied\nlogs:\n%s", got, logs)
			}
			for _, verb := range []string{"plan", "apply"} {
				if !hasFlag(t, e.argv, verb, "-parallelism=3") {
					t.Errorf("tofu %s ran without -parallelism=3: %q", verb, tofutest.Commands(t, e.argv, verb))
				}
			}
		}},
		{"parallelism 0 is tofu's default", func(t *testing.T, e *fieldsEnv) {
			e.setFields("  parallelism: 0\n")
			if got, logs := e.apply(); got.Result != history.ResultApplied {
				t.Fatalf("apply: app = %+v, want applied\nlogs:\n%s", got, logs)
			}
			for _, c := range append(tofutest.Commands(t, e.argv, "plan"), tofutest.Commands(t, e.argv, "apply")...) {
				if slices.ContainsFunc(c, func(a string) bool { return strings.HasPrefix(a, "-parallelism") }) {
					t.Errorf("tofu ran %q, want no -parallelism", c)
				}
			}
		}},
		{"refreshBeforeApply: the apply is given -refresh=true", func(t *testing.T, e *fieldsEnv) {
			e.setFields("  refreshBeforeApply: true\n")
			if got, logs := e.apply(); got.Result != history.ResultApplied {
				t.Fatalf("apply: app = %+v, want applied\nlogs:\n%s", got, logs)
			}
			if !hasFlag(t, e.argv, "apply", "-refresh=true") {
				t.Errorf("tofu apply ran without -refresh=true: %q", tofutest.Commands(t, e.argv, "apply"))
			}
			if slices.ContainsFunc(tofutest.Commands(t, e.argv, "plan"), func(c []string) bool { return slices.Contains(c, "-refresh=false") }) {
				t.Errorf("tofu plan ran with -refresh=false: %q", tofutest.Commands(t, e.argv, "plan"))
			}
		}},
		{"planOnly: planned every time, never applied", func(t *testing.T, e *fieldsEnv) {
			e.setFields("  planOnly: true\n")
			for i := 1; i <= 2; i++ {
				got, logs := e.apply()
				if got.Result != history.ResultPlanned || got.Run != i || got.PlanID == "" ||
					!strings.Contains(got.Message, "plan only (spec.planOnly of Terraform/app): plan "+got.PlanID+" recorded, not applied: 2 to add") {
					t.Fatalf("apply #%d: app = %+v, want planned, run %d, with a plan id and a message that says plan only\nlogs:\n%s", i, got, i, logs)
				}
				if !strings.Contains(logs, "INFO [app] plan: create terraform_data.a") {
					t.Errorf("apply #%d: logs do not show the plan:\n%s", i, logs)
				}
			}
			if got := resources(t, e.statePath("")); len(got) != 0 {
				t.Errorf("state resources = %v, want none: a plan-only stack is never applied", got)
			}
			if len(tofutest.Commands(t, e.argv, "apply")) != 0 {
				t.Errorf("tofu ran apply for a plan-only stack: %q", tofutest.Commands(t, e.argv, "apply"))
			}
			if _, err := os.Stat(filepath.Join(e.state, "contracts", "acme", "dev", "configuration", "app.json")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("a plan-only stack published its contract (stat: %v)", err)
			}
		}},
		{"workspace: state lands in the workspace's path and is watched there", func(t *testing.T, e *fieldsEnv) {
			if got, logs := e.apply(); got.Result != history.ResultApplied {
				t.Fatalf("apply: app = %+v, want applied\nlogs:\n%s", got, logs)
			}
			e.setFields("  workspace: blue\n")
			got, logs := e.apply()
			if got.Result != history.ResultApplied || got.Why != "the stack's spec changed: spec.workspace" {
				t.Fatalf("apply in workspace blue: app = %s (%q), want applied because spec.workspace changed\nlogs:\n%s", got.Result, got.Why, logs)
			}
			if diff := cmp.Diff(both, resources(t, e.statePath("blue"))); diff != "" {
				t.Errorf("state of workspace blue diff (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(both, resources(t, e.statePath(""))); diff != "" {
				t.Errorf("state of workspace default diff (-want +got):\n%s", diff)
			}
			if doc := readContract(t, e.state, "acme", "dev", "app"); doc.Public["workspace"] != "blue" {
				t.Errorf("contract app public.workspace = %v, want blue", doc.Public["workspace"])
			}
			// The serial and lineage recorded are those of blue's state:
			// nothing changed, so nothing is planned.
			if got, logs := e.apply(); got.Result != history.ResultUnchanged {
				t.Fatalf("apply again: app = %+v, want unchanged\nlogs:\n%s", got, logs)
			}
			// A change to blue's state outside strata is seen.
			dropResource(t, e.statePath("blue"), "b")
			got, logs = e.apply()
			if got.Result != history.ResultApplied || got.Cause != runner.CauseDrift || !strings.HasPrefix(got.Why, "state changed outside strata") {
				t.Errorf("apply after blue's state changed: app = %s/%s (%q), want applied, drift, state changed outside strata\nlogs:\n%s", got.Result, got.Cause, got.Why, logs)
			}
		}},
		{"force: planned although no input changed", func(t *testing.T, e *fieldsEnv) {
			e.setFields("  force: true\n")
			if got, logs := e.apply(); got.Result != history.ResultApplied {
				t.Fatalf("apply: app = %+v, want applied\nlogs:\n%s", got, logs)
			}
			got, logs := e.apply()
			if got.Result != history.ResultNoChanges || got.Run != 2 {
				t.Errorf("apply again: app = %+v, want run #2 planned with no changes\nlogs:\n%s", got, logs)
			}
			if !strings.Contains(logs, "but spec.force of Terraform/app is true: planned all the same") {
				t.Errorf("apply again: logs do not say spec.force planned the stack:\n%s", logs)
			}
		}},
		{"destroy: held, then approved, then resources gone", func(t *testing.T, e *fieldsEnv) {
			if got, logs := e.apply(); got.Result != history.ResultApplied {
				t.Fatalf("apply: app = %+v, want applied\nlogs:\n%s", got, logs)
			}
			e.setFields("  destroy: true\n")
			held, logs := e.apply()
			if held.Result != history.ResultHeld || held.Cause != runner.CauseDestroy || held.Summary.Destroy != 2 {
				t.Fatalf("apply with destroy: app = %+v, want its destruction of 2 held by policy\nlogs:\n%s", held, logs)
			}
			if diff := cmp.Diff(both, resources(t, e.statePath(""))); diff != "" {
				t.Errorf("state after the held destroy diff (-want +got):\n%s", diff)
			}
			req := approval.Request{Stack: "app", PlanID: held.PlanID, By: "ana", Reason: "retire app"}
			if _, err := reconcile.Approve(context.Background(), filepath.Join(e.root, "environments", "acme", "dev"), req, reconcile.Options{StateDir: e.state}); err != nil {
				t.Fatalf("Approve(app, %s) = %v", held.PlanID, err)
			}
			got, logs := e.apply()
			if got.Result != history.ResultApplied || got.PlanID != held.PlanID || got.Summary.Destroy != 2 {
				t.Fatalf("apply after approval: app = %+v, want the approved plan %s applied\nlogs:\n%s", got, held.PlanID, logs)
			}
			if !strings.Contains(logs, "plan "+held.PlanID+" was approved by ana") {
				t.Errorf("apply after approval: logs do not say the approved plan was applied:\n%s", logs)
			}
			if got := resources(t, e.statePath("")); len(got) != 0 {
				t.Errorf("state resources after destroy = %v, want none", got)
			}
			if doc := readContract(t, e.state, "acme", "dev", "app"); doc.Installed || len(doc.Public) != 0 {
				t.Errorf("contract of the destroyed stack = %+v, want installed false and no values", doc)
			}
		}},
		{"fileMappings: the Secret's key is written before init, and never shown", func(t *testing.T, e *fieldsEnv) {
			e.setFields(`  fileMappings:
    - location: home
      path: .strata-test/token
      secretRef: {name: creds, key: token}
    - location: workspace
      path: conf/token
      secretRef: {name: creds, key: token}
`)
			got, logs := e.apply()
			if got.Result != history.ResultApplied {
				t.Fatalf("apply: app = %+v, want applied\nlogs:\n%s", got, logs)
			}
			sum := sha256.Sum256([]byte("SENTINEL-mapped-file"))
			want := hex.EncodeToString(sum[:])
			doc := readContract(t, e.state, "acme", "dev", "app")
			for _, out := range []string{"home_file_sha", "workspace_file_sha"} {
				if doc.Public[out] != want {
					t.Errorf("contract app public.%s = %v, want the sha256 of the Secret's key", out, doc.Public[out])
				}
			}
			if strings.Contains(logs, "SENTINEL") {
				t.Errorf("logs hold the mapped file's content:\n%s", logs)
			}
			b, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), "SENTINEL") {
				t.Errorf("the report holds the mapped file's content: %s", b)
			}
			leaks := filepath.Join(e.state, "history.db")
			if b, err := os.ReadFile(leaks); err != nil || strings.Contains(string(b), "SENTINEL") {
				t.Errorf("history %s holds the mapped file's content (read: %v)", leaks, err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.run(t, newFieldsEnv(t))
		})
	}
}

// dropResource removes terraform_data.name from the state at path, and
// bumps its serial, as a person with tofu state rm would.
func dropResource(t *testing.T, path, name string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	var kept []any
	for _, r := range st["resources"].([]any) {
		if r.(map[string]any)["name"] != name {
			kept = append(kept, r)
		}
	}
	st["resources"] = kept
	st["serial"] = st["serial"].(float64) + 1
	if b, err = json.Marshal(st); err != nil {
		t.Fatal(err)
	}
	testkit.WriteFile(t, path, string(b))
}

// TestWorkspaceOnS3: with the environment's S3 state backend, a stack in a
// tofu workspace keeps its state at env:/<workspace>/<key>, as the s3
// backend does, and strata reads its serial and its lock there.
func TestWorkspaceOnS3(t *testing.T) {
	endpoint, access, secret := awstest.Versitygw(t)
	awstest.Env(t, access, secret)
	awstest.CreateBucket(t, endpoint, "states")
	e := newFieldsEnv(t)
	testkit.EditFile(t, e.root, "environments/acme/dev/init.yaml", "  region: eu-west-1",
		"  region: eu-west-1\n  stateBackend: s3\n  stateBucket: states\n  stateRegion: "+awstest.Region+"\n  stateEndpoint: \""+endpoint+"\"")
	e.setFields("  workspace: blue\n")
	const key = "env:/blue/acme/dev/stacks/app.tfstate"

	if got, logs := e.apply(); got.Result != history.ResultApplied {
		t.Fatalf("apply: app = %+v, want applied\nlogs:\n%s", got, logs)
	}
	if !awstest.ObjectExists(t, endpoint, "states", key) {
		t.Errorf("no state object %s in the bucket", key)
	}
	if awstest.ObjectExists(t, endpoint, "states", "acme/dev/stacks/app.tfstate") {
		t.Errorf("state object acme/dev/stacks/app.tfstate exists, want the default workspace's state untouched")
	}
	// The serial strata recorded is that of the workspace's state: nothing
	// changed, so nothing is planned.
	if got, logs := e.apply(); got.Result != history.ResultUnchanged {
		t.Fatalf("apply again: app = %+v, want unchanged\nlogs:\n%s", got, logs)
	}
	// A lock on the workspace's state is read there and named.
	awstest.PutObject(t, endpoint, "states", key+".tflock",
		`{"ID":"5a1e5b1c-blue-lock","Operation":"OperationTypeApply","Who":"ana@laptop","Version":"1.10.6","Path":"states/`+key+`"}`)
	e.setFields("  workspace: blue\n  parallelism: 2\n")
	got, logs := e.apply()
	if got.Result != history.ResultFailed || !strings.Contains(logs, "the state is locked") || !strings.Contains(logs, "5a1e5b1c-blue-lock") {
		t.Errorf("locked workspace state: app = %s (%s), want failed, with the lock named in the log\nlogs:\n%s", got.Result, got.Message, logs)
	}
}
