package tofu_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-iac/strata/orchestrator/tofu"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// TestInitBackendConfig: each Options.BackendConfig reaches init as
// -backend-config=key=value would, whatever the value holds (quotes,
// spaces, a shell's special characters, a newline), and the stack's
// environment reaches plan and apply, its TF_VAR_ variables included.
func TestInitBackendConfig(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	main := `terraform {
  backend "local" {}
}

variable "name" {
  type = string
}

resource "terraform_data" "thing" {
  input = var.name
}

output "name" {
  value = terraform_data.thing.output
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	const value = "it's a \"state\" $HOME `id` \\ ; & | * ~ $(x) \n end"
	statePath := filepath.Join(t.TempDir(), "states", value+".tfstate")
	if err := os.MkdirAll(filepath.Dir(statePath), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TF_VAR_name", "from strata's own environment, which tofu never sees")
	ws, err := tofu.New(tofutest.Binary(t), dir, tofu.Options{
		BackendConfig: []string{"path=" + filepath.Join(dir, "first.tfstate"), "path=" + statePath},
		StackEnv:      map[string]string{"TF_VAR_name": value},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.Init(ctx, nil); err != nil {
		t.Fatalf("Init() = %v, want nil", err)
	}
	planFile := filepath.Join(dir, "plan.out")
	if _, err := ws.Plan(ctx, tofu.PlanOptions{Out: planFile}, nil); err != nil {
		t.Fatalf("Plan() = %v", err)
	}
	if err := ws.Apply(ctx, planFile, tofu.ApplyOptions{}, nil); err != nil {
		t.Fatalf("Apply() = %v", err)
	}
	if _, err := os.Stat(statePath); err != nil {
		t.Errorf("state at the last -backend-config path: %v, want the state there", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "first.tfstate")); err == nil {
		t.Errorf("state at the first -backend-config path, want the last one to win as on tofu's command line")
	}
	outs, err := ws.Outputs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := outs["name"].Value; got != value {
		t.Errorf("output name = %q, want the stack's TF_VAR_name %q", got, value)
	}
}

// TestInitBackendConfigError: a key the backend does not take fails init,
// with tofu's diagnostic.
func TestInitBackendConfigError(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("terraform {\n  backend \"local\" {}\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := tofu.New(tofutest.Binary(t), dir, tofu.Options{BackendConfig: []string{"nonesuch=1"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.Init(context.Background(), nil); err == nil {
		t.Errorf("Init() with -backend-config=nonesuch=1 = nil, want tofu's error")
	}
}
