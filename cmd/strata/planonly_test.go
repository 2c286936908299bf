package main

import (
	"path/filepath"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// TestStatusPlanOnly: a stack with spec.planOnly is planned, never
// applied, and status says so.
func TestStatusPlanOnly(t *testing.T) {
	root := testkit.Copy(t, filepath.Join("..", "..", "orchestrator", "testdata", "runfields"))
	testkit.EditFile(t, root, "flux-apps/app/terraform.yaml", "  # the tests add fields here", "  planOnly: true")
	env := filepath.Join(root, "environments", "acme", "dev")
	state := t.TempDir()
	runCases(t, []cliCase{
		{"apply", []string{"apply", env, "--tofu", tofutest.Binary(t), "--state-dir", state}, 0,
			[]string{"planned", "plan only (spec.planOnly of Terraform/app)"}, nil},
		{"status", []string{"status", env, "--state-dir", state}, 0,
			[]string{"#1 apply", "planned (plan only)", "(not published yet)"}, nil},
		{"status json", []string{"status", env, "--state-dir", state, "-o", "json"}, 0,
			[]string{`"planOnly": true`}, nil},
	})
}
