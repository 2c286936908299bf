package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/orchestrator/hashkey"
	"github.com/strata-iac/strata/policy"
)

func TestPolicyCommands(t *testing.T) {
	fixture := func(name string) string { return filepath.Join("..", "..", "policy", "testdata", name) }
	dir := func(files map[string]string) string {
		d := t.TempDir()
		for name, content := range files {
			if err := os.WriteFile(filepath.Join(d, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	failing := dir(map[string]string{"t.rego": "package team\n\ntest_fails if false\n\ntest_passes if true\n"})
	broken := dir(map[string]string{"bad.rego": "package main\n\ndeny contains msg if {\n"})
	user := dir(map[string]string{"drift.rego": `package main

warn_drift contains {"msg": sprintf("%s drifted in %s", [rc.address, input.strata.stack]), "address": rc.address} if {
	input.strata.cause == "drift"
	some rc in input.resource_changes
	rc.change.actions != ["no-op"]
}
`})
	// The id strata gives a plan in a state directory is keyed with that
	// directory's hash key.
	state := t.TempDir()
	key, err := hashkey.Load(state)
	if err != nil {
		t.Fatal(err)
	}
	replacePlan, err := os.ReadFile(fixture("terraform_data_replace.json"))
	if err != nil {
		t.Fatal(err)
	}
	replaceID, err := policy.PlanID(key, replacePlan)
	if err != nil {
		t.Fatal(err)
	}
	tests := []cliCase{
		{"test the default bundle", []string{"policy", "test"}, 0,
			[]string{"PASS  main.test_deny_delete_destroy (policy/bundle/delete_test.rego:", "PASS  main.test_deny_iam_", " passed, 0 failed\n"}, nil},
		{"test a failing dir", []string{"policy", "test", failing}, 1,
			[]string{"FAIL  team.test_fails (" + failing, "PASS  team.test_passes", "PASS  main.test_deny_delete_destroy", " passed, 1 failed\n"},
			[]string{"1 Rego test(s) failed"}},
		{"test without the bundle", []string{"policy", "test", "--no-default", failing}, 1,
			[]string{"1 passed, 1 failed\n"}, nil},
		{"test --no-default needs a dir", []string{"policy", "test", "--no-default"}, 2, nil, []string{"name at least one DIR"}},
		{"test a broken dir", []string{"policy", "test", broken}, 1, nil, []string{"bad.rego:4: rego_parse_error"}},
		{"test json", []string{"policy", "test", failing, "--no-default", "-o", "json"}, 1,
			[]string{`"passed": 1`, `"failed": 1`, `"name": "test_fails"`}, nil},
		{"eval a replace", []string{"policy", "eval", "--plan", fixture("terraform_data_replace.json"), "--state-dir", state}, 1,
			[]string{"plan " + replaceID + "\n", "DENY      deny_delete terraform_data.release\n          terraform_data.release: replacing it", "held for a person's approval: 1 deny, 0 warnings, 0 exceptions"},
			[]string{"is held for approval: 1 deny"}},
		{"eval an update", []string{"policy", "eval", "--plan", fixture("terraform_data_update.json")}, 0,
			[]string{"plan id: pass --state-dir to see it", "allowed: 0 denies, 0 warnings, 0 exceptions"}, nil},
		{"eval without a state dir shows no id", []string{"policy", "eval", "--plan", fixture("terraform_data_replace.json")}, 1,
			[]string{"plan id: pass --state-dir to see it"}, []string{"plan (no id without --state-dir) is held for approval"}},
		{"eval IAM in an allowed module", []string{"policy", "eval", "--plan", fixture("aws_iam_policy_update.json"), "--iam-allowed-module", "module.iam_roles"}, 0,
			[]string{"allowed: 0 denies"}, nil},
		{"eval IAM outside", []string{"policy", "eval", "--plan", fixture("aws_iam_policy_update.json")}, 1,
			[]string{"DENY      deny_iam module.iam_roles.aws_iam_policy.deploy"}, nil},
		{"eval with user rules and meta", []string{"policy", "eval", "--plan", fixture("terraform_data_update.json"), "--policy", user, "--stack", "network", "--cause", "drift"}, 0,
			[]string{"WARN      warn_drift terraform_data.settings\n          terraform_data.settings drifted in network", "allowed: 0 denies, 1 warning"}, nil},
		{"eval without the bundle", []string{"policy", "eval", "--plan", fixture("terraform_data_replace.json"), "--policy", user, "--no-default"}, 0,
			[]string{"allowed: 0 denies"}, nil},
		{"eval with a broken policy fails closed", []string{"policy", "eval", "--plan", fixture("terraform_data_update.json"), "--policy", broken}, 1,
			nil, []string{"load policy dir " + broken, "bad.rego:4: rego_parse_error"}},
		{"eval needs --plan", []string{"policy", "eval"}, 1, nil, []string{`required flag(s) "plan" not set`}},
		{"eval a missing plan", []string{"policy", "eval", "--plan", "nope.json"}, 1, nil, []string{"read plan nope.json: "}},
		{"eval a file that is no plan", []string{"policy", "eval", "--plan", filepath.Join(user, "drift.rego")}, 1, nil, []string{"decode plan"}},
	}
	runCases(t, tests)

	t.Run("eval json", func(t *testing.T) {
		out, _, code := strata(t, "policy", "eval", "--plan", fixture("aws_iam_role_policy_attachment_delete.json"), "--state-dir", state, "-o", "json")
		if code != 1 {
			t.Errorf("strata policy eval -o json exit code = %d, want 1", code)
		}
		var doc struct {
			PlanID  string `json:"planId"`
			Allowed bool   `json:"allowed"`
			Denies  []struct {
				Rule    string `json:"rule"`
				Address string `json:"address"`
			} `json:"denies"`
			Warnings []any `json:"warnings"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("strata policy eval -o json = %v, want JSON:\n%s", err, out)
		}
		if !strings.HasPrefix(doc.PlanID, "plan-") || doc.Allowed || len(doc.Denies) != 2 || doc.Warnings == nil {
			t.Errorf("strata policy eval -o json = %+v, want a plan id, not allowed, 2 denies, an empty list of warnings", doc)
		}
	})
}
