package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// TestStatusSuspendedAndOrphaned runs the command line over the layered
// fixture: without --drift-interval each stack's own spec.interval (10m)
// is its drift interval, and with it the flag holds for every stack; a
// suspended stack and a stack that left the repository without
// destroyResourcesOnDeletion say so in the apply's log and report, and in
// strata status, and neither fails the apply.
func TestStatusSuspendedAndOrphaned(t *testing.T) {
	root := repo(t)
	env := filepath.Join(root, "environments", "acme", "dev")
	state := t.TempDir()
	run := []string{"--tofu", tofutest.Binary(t), "--state-dir", state}
	runCases(t, []cliCase{
		{"apply", append([]string{"apply", env}, run...), 0, []string{"6 applied"}, nil},
		{"own interval", append([]string{"apply", env}, run...), 0, []string{"INFO [net] up to date: no input changed since run #1; next drift check in 9m"}, nil},
		{"flag interval", append([]string{"apply", env, "--drift-interval", "2h"}, run...), 0,
			[]string{"INFO [net] up to date: no input changed since run #1; next drift check in 1h59m"}, nil},
	})

	testkit.EditFile(t, root, "flux-apps/service-stacks/jobs/terraform.yaml", "  approvePlan: auto\n", "  approvePlan: auto\n  suspend: true\n")
	if err := os.Remove(filepath.Join(env, "services", "app.yaml")); err != nil {
		t.Fatal(err)
	}
	out, _ := checkRun(t, append([]string{"apply", env}, run...), 0, []string{
		"INFO [jobs] suspended: spec.suspend is true in flux-apps/service-stacks/jobs/terraform.yaml",
		"WARN [app] left the repository, and its last run in it (#1) did not set spec.destroyResourcesOnDeletion: true",
	}, nil)
	for _, re := range []string{`jobs\s+services\s+.*suspended`, `report\s+services\s+.*waiting`, `app\s+\(removed\)\s+.*orphaned`} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("strata apply report does not match %s:\n%s", re, out)
		}
	}
	out, _ = checkRun(t, []string{"status", env, "--state-dir", state}, 0, []string{"(suspended: spec.suspend is true)"}, nil)
	for _, re := range []string{`jobs\s+services\s+#1 apply\s+applied \(suspended: spec.suspend is true\)`, `app\s+-\s+#2 apply\s+orphaned \(removed from repository\)`} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("strata status does not match %s:\n%s", re, out)
		}
	}
	out, _ = checkRun(t, []string{"status", env, "--state-dir", state, "-o", "json"}, 0, []string{`"suspended": true`, `"result": "orphaned"`}, nil)
	if strings.Count(out, `"suspended": true`) != 1 {
		t.Errorf("strata status -o json marks %d stacks suspended, want 1:\n%s", strings.Count(out, `"suspended": true`), out)
	}
}
