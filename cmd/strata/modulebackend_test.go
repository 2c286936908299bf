package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/httpstatetest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/internal/tfetest"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// tfeToken is the HCP Terraform token of TestModuleOwnedBackend: only
// --inputs gives it, and it must reach nothing but tofu.
const tfeToken = "SENTINEL-tfe.atlasv1.token"

// TestModuleOwnedBackend: with spec.backendConfig.disable, a stack keeps
// its state where its module's own backend says, through tofu alone.
//
// cloud: the module's cloud {} block names a fake of the HCP Terraform
// API; the token is in the CLI configuration of spec.cliConfigSecretRef,
// a Secret only --inputs gives. validate waits for it without --inputs;
// with it the stack applies, its state lands in the workspace, the next
// plan changes nothing, a lock another holder left fails the plan with
// tofu's lock ID, strata unlock releases it with tofu force-unlock, and
// the token is in no output and no file of the state directory but the
// stack's CLI configuration.
//
// http: the same with a backend "http" block whose credentials come from
// spec.backendConfigsFrom; and a module that declares no backend is a
// failed run that says how to fix it, with nothing written.
func TestModuleOwnedBackend(t *testing.T) {
	tofuBin := tofutest.Binary(t)
	t.Run("cloud", func(t *testing.T) {
		s := tfetest.Start(t, "acme", tfeToken)
		t.Setenv("SSL_CERT_FILE", s.CAFile)
		root := testkit.Copy(t, filepath.Join("..", "..", "orchestrator", "testdata", "runfields"))
		testkit.WriteFile(t, filepath.Join(root, "flux-apps", "app", "terraform", "cloud.tf"), `terraform {
  cloud {
    hostname     = "`+s.Host+`"
    organization = "acme"
    workspaces {
      name = "dev"
    }
  }
}
`)
		testkit.EditFile(t, root, "flux-apps/app/terraform.yaml", "  # the tests add fields here",
			"  backendConfig:\n    disable: true\n  cliConfigSecretRef:\n    name: tfc-cli\n    namespace: flux-system")
		inputs := t.TempDir()
		testkit.WriteFile(t, filepath.Join(inputs, "tfc-cli.yaml"), `apiVersion: v1
kind: Secret
metadata:
  name: tfc-cli
  namespace: flux-system
stringData:
  terraform.tfrc: |
    credentials "`+s.Host+`" {
      token = "`+tfeToken+`"
    }
`)
		env := filepath.Join(root, "environments", "acme", "dev")
		state := t.TempDir()
		var seen strings.Builder
		run := func(wantCode int, args ...string) string {
			t.Helper()
			out, errOut, code := strata(t, args...)
			seen.WriteString(out + errOut)
			if code != wantCode {
				t.Fatalf("strata %q exit code = %d, want %d:\n%s\n%s", args, code, wantCode, out, errOut)
			}
			return out + errOut
		}
		if out := run(0, "validate", env, "-v"); !strings.Contains(out, "waiting for input Secret/flux-system/tfc-cli (spec.cliConfigSecretRef)") ||
			!strings.Contains(out, "spec.backendConfig.disable: the module's own backend or cloud block keeps the state") {
			t.Errorf("strata validate without --inputs = %s, want it to wait for Secret tfc-cli and note the module's backend", out)
		}
		apply := []string{"apply", env, "--tofu", tofuBin, "--state-dir", state, "--inputs", inputs}
		if out := run(0, apply...); !strings.Contains(out, "[app] apply complete") {
			t.Fatalf("strata apply = %s, want app applied", out)
		}
		if st, ok := s.State("dev"); !ok || !strings.Contains(string(st), `"terraform_data"`) {
			t.Fatalf("the workspace's state = %q, %v, want the applied resources", st, ok)
		}
		versions := s.Versions("dev")
		plan := []string{"plan", env, "--tofu", tofuBin, "--state-dir", state, "--inputs", inputs, "--drift-interval", "0"}
		if out := run(0, plan...); !strings.Contains(out, "no changes") {
			t.Errorf("strata plan after the apply = %s, want no changes", out)
		}
		if got := s.Versions("dev"); got != versions {
			t.Errorf("state versions after a plan = %d, want %d: a plan writes no state", got, versions)
		}

		// A lock its holder left: tofu's error names the lock, and strata
		// unlock releases it through tofu, with the stack's token.
		s.Lock("dev")
		if out := run(1, plan...); !strings.Contains(out, "already locked") || !strings.Contains(out, "acme/dev") {
			t.Errorf("strata plan of a locked workspace = %s, want tofu's lock error naming acme/dev", out)
		}
		run(0, "unlock", env, "app", "acme/dev", "--reason", "left by a test", "--state-dir", state, "--tofu", tofuBin, "--inputs", inputs)
		if s.Locked("dev") {
			t.Error("the workspace is still locked after strata unlock")
		}
		if out := run(0, plan...); !strings.Contains(out, "no changes") {
			t.Errorf("strata plan after the unlock = %s, want no changes", out)
		}
		if n := s.Unauthorized(); n != 0 {
			t.Errorf("the fake refused %d requests without the token, want 0", n)
		}
		if strings.Contains(seen.String(), tfeToken) {
			t.Errorf("the token appears in strata's output:\n%s", seen.String())
		}
		holding := filesHolding(t, state, tfeToken)
		if want := []string{"work/acme/dev/app/.terraform/strata-cli.tfrc"}; !slicesEqual(holding, want) {
			t.Errorf("files of the state directory holding the token = %q, want %q", holding, want)
		}
		if fi, err := os.Stat(filepath.Join(state, "work", "acme", "dev", "app", ".terraform", "strata-cli.tfrc")); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("the stack's CLI configuration: %v, %v, want mode 0600", fi, err)
		}
		if _, err := os.Stat(filepath.Join(state, "work", "acme", "dev", "app", "backend_override.tf")); err == nil {
			t.Error("strata wrote backend_override.tf for a stack whose backend is disabled")
		}
	})

	t.Run("spec.cloud", func(t *testing.T) {
		const token = "SENTINEL-spec-cloud-token"
		s := tfetest.Start(t, "acme", token)
		t.Setenv("SSL_CERT_FILE", s.CAFile)
		root := testkit.Copy(t, filepath.Join("..", "..", "orchestrator", "testdata", "runfields"))
		testkit.EditFile(t, root, "flux-apps/app/terraform.yaml", "  # the tests add fields here",
			"  cloud:\n    organization: acme\n    hostname: "+s.Host+"\n    token: "+token+"\n    workspaces:\n      name: app")
		env := filepath.Join(root, "environments", "acme", "dev")
		state := t.TempDir()
		out, errOut, code := strata(t, "apply", env, "--tofu", tofuBin, "--state-dir", state)
		if code != 0 || !strings.Contains(out+errOut, "[app] apply complete") {
			t.Fatalf("strata apply exit code = %d, want app applied:\n%s\n%s", code, out, errOut)
		}
		if st, ok := s.State("app"); !ok || !strings.Contains(string(st), `"terraform_data"`) {
			t.Errorf("the cloud workspace's state = %q, %v, want the applied resources", st, ok)
		}
		if strings.Contains(out+errOut, token) {
			t.Errorf("the token appears in strata's output:\n%s", out+errOut)
		}
		// The token is the repository's own plain text here: the render
		// cache (0600) holds it as it holds the repository; no backend
		// file, plan, log or record does.
		var holding []string
		for _, f := range filesHolding(t, state, token) {
			if !strings.HasPrefix(f, "render/") {
				holding = append(holding, f)
			}
		}
		if want := []string{"work/acme/dev/app/.terraform/strata-cli.tfrc"}; !slicesEqual(holding, want) {
			t.Errorf("files of the state directory holding the token = %q, want %q: none in the backend file or the plan", holding, want)
		}
	})

	t.Run("http", func(t *testing.T) {
		s := httpstatetest.Start(t, "state-user", "state-password")
		root := testkit.Copy(t, filepath.Join("..", "..", "orchestrator", "testdata", "runfields"))
		testkit.WriteFile(t, filepath.Join(root, "flux-apps", "app", "terraform", "backend.tf"), "terraform {\n  "+s.Backend("acme-dev-app")+"\n}\n")
		testkit.WriteFile(t, filepath.Join(root, "flux-apps", "app", "http-creds.yaml"),
			"apiVersion: v1\nkind: Secret\nmetadata: {name: http-creds, namespace: flux-system}\nstringData: {username: state-user, password: state-password}\n")
		testkit.EditFile(t, root, "flux-apps/app/kustomization.yaml", "  - creds.yaml", "  - creds.yaml\n  - http-creds.yaml")
		testkit.EditFile(t, root, "flux-apps/app/terraform.yaml", "  # the tests add fields here",
			"  backendConfig:\n    disable: true\n    customConfiguration: ignored, as the Tofu Controller ignores it\n  backendConfigsFrom:\n    - {kind: Secret, name: http-creds}")
		env := filepath.Join(root, "environments", "acme", "dev")
		state := t.TempDir()
		apply := []string{"apply", env, "--tofu", tofuBin, "--state-dir", state}
		if out, errOut, code := strata(t, apply...); code != 0 || !strings.Contains(out+errOut, "[app] apply complete") {
			t.Fatalf("strata apply exit code = %d, want app applied:\n%s\n%s", code, out, errOut)
		}
		if st, ok := s.State("acme-dev-app"); !ok || !strings.Contains(string(st), `"terraform_data"`) {
			t.Fatalf("the http backend's state = %q, %v, want the applied resources", st, ok)
		}
		if s.Locked("acme-dev-app") {
			t.Error("the http backend's state is still locked after the apply")
		}
		writes := s.Writes("acme-dev-app")
		s.Lock("acme-dev-app", "held-elsewhere")
		plan := []string{"plan", env, "--tofu", tofuBin, "--state-dir", state, "--drift-interval", "0"}
		if out, errOut, code := strata(t, plan...); code != 1 || !strings.Contains(out+errOut, "held-elsewhere") {
			t.Errorf("strata plan of a locked state exit code = %d, want 1 and tofu's lock error naming held-elsewhere:\n%s\n%s", code, out, errOut)
		}
		if _, errOut, code := strata(t, "unlock", env, "app", "held-elsewhere", "--reason", "left by a test", "--state-dir", state, "--tofu", tofuBin); code != 0 {
			t.Fatalf("strata unlock exit code = %d:\n%s", code, errOut)
		}
		if out, errOut, code := strata(t, plan...); code != 0 || !strings.Contains(out+errOut, "no changes") {
			t.Errorf("strata plan after the unlock exit code = %d, want no changes:\n%s\n%s", code, out, errOut)
		}
		if got := s.Writes("acme-dev-app"); got != writes {
			t.Errorf("state writes after plans = %d, want %d", got, writes)
		}

		// spec.tfstate.lockTimeout: the plan waits for a lock its holder
		// releases within it.
		testkit.EditFile(t, root, "flux-apps/app/terraform.yaml", "    - {kind: Secret, name: http-creds}", "    - {kind: Secret, name: http-creds}\n  tfstate:\n    lockTimeout: 1m")
		s.Lock("acme-dev-app", "held-briefly")
		go func() {
			time.Sleep(2 * time.Second)
			s.Unlock("acme-dev-app")
		}()
		if out, errOut, code := strata(t, plan...); code != 0 || !strings.Contains(out+errOut, "no changes") {
			t.Errorf("strata plan with lockTimeout 1m of a lock released after 2s: exit code = %d, want no changes:\n%s\n%s", code, out, errOut)
		}

		// A module without a backend of its own: its state would go
		// into the workspace strata clears, so the run fails and says so.
		if err := os.Remove(filepath.Join(root, "flux-apps", "app", "terraform", "backend.tf")); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := strata(t, plan...)
		if code != 1 || !strings.Contains(out+errOut, "declares no backend or cloud block") || !strings.Contains(out+errOut, "remove spec.backendConfig.disable") {
			t.Errorf("strata plan of a module without a backend exit code = %d, want 1 and the fix:\n%s\n%s", code, out, errOut)
		}
	})
}

// filesHolding lists the files under dir, slash-separated and relative to
// it, that contain s.
func filesHolding(t *testing.T, dir, s string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(b), s) {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func slicesEqual(a, b []string) bool { return strings.Join(a, "\n") == strings.Join(b, "\n") }
