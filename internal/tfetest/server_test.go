package tfetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestServerWithTofu: the real tofu keeps a workspace's state in the
// fake through a cloud block, with the token of a CLI configuration:
// init, plan, apply, output and state pull; a workspace locked by
// another holder fails the plan, and force-unlock releases it. A request
// without the token is refused.
func TestServerWithTofu(t *testing.T) {
	bin := os.Getenv("STRATA_TOFU")
	if bin == "" {
		t.Skip("STRATA_TOFU is not set: no tofu to run")
	}
	const token = "SENTINEL.atlasv1.token"
	s := Start(t, "acme", token)
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("main.tf", `terraform {
  cloud {
    hostname     = "`+s.Host+`"
    organization = "acme"
    workspaces {
      name = "dev"
    }
  }
}

resource "terraform_data" "a" {
  input = "a"
}

output "a" {
  value = terraform_data.a.output
}

output "secret" {
  value     = "hidden"
  sensitive = true
}
`)
	cli := filepath.Join(t.TempDir(), "cli.tfrc")
	if err := os.WriteFile(cli, []byte(`credentials "`+s.Host+`" {
  token = "`+token+`"
}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, error) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cli, "SSL_CERT_FILE="+s.CAFile, "TF_IN_AUTOMATION=1")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	must := func(args ...string) string {
		t.Helper()
		out, err := run(args...)
		if err != nil {
			t.Fatalf("tofu %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}
	must("init", "-input=false")
	must("plan", "-input=false", "-out=plan.bin")
	must("apply", "-input=false", "plan.bin")
	if state, ok := s.State("dev"); !ok || !strings.Contains(string(state), `"terraform_data"`) {
		t.Errorf("State(dev) = %q, %v, want the applied state", state, ok)
	}
	if out := must("output", "-json"); !strings.Contains(out, `"hidden"`) || !strings.Contains(out, `"a"`) {
		t.Errorf("tofu output -json = %s, want both outputs with their values", out)
	}
	if out := must("state", "pull"); !strings.Contains(out, `"serial":1`) {
		t.Errorf("tofu state pull = %s, want serial 1", out)
	}
	if !s.Lock("dev") {
		t.Fatal("Lock(dev) found the workspace locked")
	}
	if out, err := run("plan", "-input=false", "-lock-timeout=0s"); err == nil || !strings.Contains(out, "already locked") {
		t.Errorf("tofu plan of a locked workspace = %v\n%s, want a lock error", err, out)
	}
	must("force-unlock", "-force", "acme/dev")
	if s.Locked("dev") {
		t.Error("Locked(dev) after force-unlock = true, want false")
	}
	if s.Unauthorized() != 0 {
		t.Errorf("Unauthorized() = %d, want 0: tofu sent its token with every request", s.Unauthorized())
	}
	if err := os.WriteFile(cli, []byte(`credentials "`+s.Host+`" {
  token = "wrong"
}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := run("plan", "-input=false"); err == nil || !strings.Contains(strings.ToLower(out), "unauthorized") {
		t.Errorf("tofu plan with a wrong token = %v\n%s, want unauthorized", err, out)
	}
	if s.Unauthorized() == 0 {
		t.Error("Unauthorized() = 0 after a wrong token, want the requests counted")
	}
}
