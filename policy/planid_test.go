package policy

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

var planIDFormat = regexp.MustCompile(`^plan-[0-9a-f]{12}$`)

func TestPlanIDFixtures(t *testing.T) {
	replace := fixture(t, "terraform_data_replace.json")
	again := fixture(t, "terraform_data_replace_again.json")
	if bytes.Equal(replace, again) {
		t.Fatal("the two plans of the same change are byte for byte equal; they should differ at least in their timestamp")
	}
	ids := map[string]string{} // id -> fixture
	for _, name := range []string{
		"terraform_data_replace.json",
		"terraform_data_update.json",
		"aws_iam_role_create.json",
		"aws_iam_policy_update.json",
		"aws_iam_role_policy_attachment_delete.json",
		"aws_s3_bucket_create.json",
	} {
		id, err := PlanID(testKey, fixture(t, name))
		if err != nil {
			t.Fatalf("PlanID(%q) = %v, want nil", name, err)
		}
		if !planIDFormat.MatchString(id) {
			t.Errorf("PlanID(%q) = %q, want plan- and 12 hex digits", name, id)
		}
		if other, ok := ids[id]; ok {
			t.Errorf("PlanID(%q) = %q, the same as PlanID(%q), want different changes to have different ids", name, id, other)
		}
		ids[id] = name
	}
	a, errA := PlanID(testKey, replace)
	b, errB := PlanID(testKey, again)
	if errA != nil || errB != nil || a != b {
		t.Errorf("PlanID of the same change planned twice = %q (%v) and %q (%v), want equal", a, errA, b, errB)
	}
}

func TestPlanIDContent(t *testing.T) {
	base := fixture(t, "terraform_data_replace.json")
	want, err := PlanID(testKey, base)
	if err != nil {
		t.Fatal(err)
	}
	rc0 := func(p map[string]any) map[string]any {
		return p["resource_changes"].([]any)[0].(map[string]any)
	}
	change0 := func(p map[string]any) map[string]any { return rc0(p)["change"].(map[string]any) }
	tests := []struct {
		name   string
		change func(p map[string]any)
		same   bool
	}{
		{"nothing", func(map[string]any) {}, true},
		{"timestamp", func(p map[string]any) { p["timestamp"] = "2030-01-01T00:00:00Z" }, true},
		{"tofu version", func(p map[string]any) { p["terraform_version"] = "1.11.0" }, true},
		{"variables", func(p map[string]any) { p["variables"] = map[string]any{"release": map[string]any{"value": "other"}} }, true},
		{"configuration", func(p map[string]any) { delete(p, "configuration") }, true},
		{"prior state", func(p map[string]any) { delete(p, "prior_state") }, true},
		{"planned values", func(p map[string]any) { delete(p, "planned_values") }, true},
		{"relevant attributes", func(p map[string]any) { delete(p, "relevant_attributes") }, true},
		{"action reason", func(p map[string]any) { rc0(p)["action_reason"] = "replace_by_request" }, true},
		{"order of resource changes", func(p map[string]any) {
			l := p["resource_changes"].([]any)
			l[0], l[1] = l[1], l[0]
		}, true},
		{"after value", func(p map[string]any) { change0(p)["after"].(map[string]any)["triggers_replace"] = "v3" }, false},
		{"before value", func(p map[string]any) { change0(p)["before"].(map[string]any)["id"] = "other-id" }, false},
		{"actions", func(p map[string]any) { change0(p)["actions"] = []any{"create", "delete"} }, false},
		{"after unknown", func(p map[string]any) { change0(p)["after_unknown"] = map[string]any{} }, false},
		{"after sensitive", func(p map[string]any) {
			change0(p)["after_sensitive"] = map[string]any{"triggers_replace": true}
		}, false},
		{"replace paths", func(p map[string]any) { delete(change0(p), "replace_paths") }, false},
		{"address", func(p map[string]any) { rc0(p)["address"] = "terraform_data.other" }, false},
		{"output change", func(p map[string]any) {
			p["output_changes"].(map[string]any)["settings"].(map[string]any)["after"] = "b"
		}, false},
		{"one more resource change", func(p map[string]any) {
			p["resource_changes"] = append(p["resource_changes"].([]any), map[string]any{"address": "terraform_data.new"})
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dec := json.NewDecoder(bytes.NewReader(base))
			dec.UseNumber()
			var p map[string]any
			if err := dec.Decode(&p); err != nil {
				t.Fatal(err)
			}
			tt.change(p)
			b, err := json.MarshalIndent(p, "", "\t") // another layout and key order
			if err != nil {
				t.Fatal(err)
			}
			got, err := PlanID(testKey, b)
			if err != nil {
				t.Fatalf("PlanID() after changing %s = %v, want nil", tt.name, err)
			}
			if (got == want) != tt.same {
				t.Errorf("PlanID() after changing %s = %q, want the same as %q: %v", tt.name, got, want, tt.same)
			}
		})
	}
}

func TestPlanIDErrors(t *testing.T) {
	tests := []struct {
		plan    string
		wantErr string
	}{
		{"", "plan id: decode plan: EOF"},
		{"not json", "plan id: decode plan: invalid character"},
		{`{"resource_changes":[]}`, "plan id: decode plan: no format_version"},
		{`{"format_version":"1.2","resource_changes":{}}`, "plan id: resource_changes: want a list"},
		{`{"format_version":"1.2","resource_changes":[1]}`, "plan id: resource_changes[0]: want an object"},
	}
	for _, tt := range tests {
		got, err := PlanID(testKey, []byte(tt.plan))
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("PlanID(%q) = %q, %v, want an error containing %q", tt.plan, got, err, tt.wantErr)
		}
	}
	if got, err := PlanID(testKey, []byte(`{"format_version":"1.2"}`)); err != nil || !planIDFormat.MatchString(got) {
		t.Errorf("PlanID(testKey, a plan with no change) = %q, %v, want an id", got, err)
	}
}

// TestPlanIDRealTofu plans the same change twice, a while apart, with the
// real tofu, and a different change once.
func TestPlanIDRealTofu(t *testing.T) {
	if testing.Short() {
		t.Skip("runs tofu")
	}
	bin := tofutest.Binary(t)
	dir := t.TempDir()
	config, err := os.ReadFile(filepath.Join("testdata", "tofu", "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), config, 0o644); err != nil {
		t.Fatal(err)
	}
	cliConfig := filepath.Join(t.TempDir(), "empty.tfrc")
	if err := os.WriteFile(cliConfig, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tofu := func(args ...string) []byte {
		t.Helper()
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig, "TF_IN_AUTOMATION=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("tofu %v: %v\n%s", args, err, stderr.String())
		}
		return out
	}
	plan := func(release string) []byte {
		t.Helper()
		tofu("plan", "-input=false", "-out=plan.tfplan", "-var", "release="+release, "-var", "settings=a")
		return tofu("show", "-json", "plan.tfplan")
	}
	tofu("init", "-input=false")
	tofu("apply", "-input=false", "-auto-approve", "-var", "release=v1", "-var", "settings=a")
	first := plan("v2")
	time.Sleep(1100 * time.Millisecond) // tofu's timestamps are in seconds
	second := plan("v2")
	other := plan("v3")
	if bytes.Equal(first, second) {
		t.Fatal("tofu printed the same bytes for both plans; want them to differ in their timestamp")
	}
	a, errA := PlanID(testKey, first)
	b, errB := PlanID(testKey, second)
	c, errC := PlanID(testKey, other)
	if errA != nil || errB != nil || errC != nil {
		t.Fatalf("PlanID() = %v, %v, %v, want nil", errA, errB, errC)
	}
	if a != b {
		t.Errorf("PlanID() of the same change planned twice = %q and %q, want equal", a, b)
	}
	if a == c {
		t.Errorf("PlanID() of release v2 and of release v3 = %q, want different", a)
	}
}

// testKey is the hash key the tests derive plan ids under.
var testKey = []byte("0123456789abcdef0123456789abcdef")

// TestPlanIDKeyed checks that a plan id depends on the key, that there is
// no id without one, and that the unkeyed id is still the id strata gave
// the same plan before ids were keyed.
func TestPlanIDKeyed(t *testing.T) {
	plan := fixture(t, "terraform_data_replace.json")
	other := []byte("fedcba9876543210fedcba9876543210")
	a, errA := PlanID(testKey, plan)
	b, errB := PlanID(other, plan)
	if errA != nil || errB != nil || a == b {
		t.Errorf("PlanID(two keys, %q) = %q (%v) and %q (%v), want two different ids", "terraform_data_replace.json", a, errA, b, errB)
	}
	if got, err := PlanID(nil, plan); err == nil {
		t.Errorf("PlanID(no key, %q) = %q, nil, want an error", "terraform_data_replace.json", got)
	}
	// The id of this fixture before plan ids were keyed.
	const before = "plan-89a947d95607"
	if got, err := UnkeyedPlanID(plan); err != nil || got != before {
		t.Errorf("UnkeyedPlanID(%q) = %q, %v, want %q", "terraform_data_replace.json", got, err, before)
	}
	if a == before || b == before {
		t.Errorf("PlanID(%q) = %q and %q, want neither to be the unkeyed id %q", "terraform_data_replace.json", a, b, before)
	}
}

func TestNoChangesPlanID(t *testing.T) {
	a, err := NoChangesPlanID([]byte("key-a"))
	if err != nil {
		t.Fatalf("NoChangesPlanID(key-a) = %v", err)
	}
	again, _ := NoChangesPlanID([]byte("key-a"))
	b, _ := NoChangesPlanID([]byte("key-b"))
	if a != again || a == b || !strings.HasPrefix(a, "plan-") || len(a) != len("plan-")+12 {
		t.Errorf("NoChangesPlanID = %q, again %q, under another key %q; want one stable plan-<12 hex> id per key", a, again, b)
	}
	if _, err := NoChangesPlanID(nil); err == nil {
		t.Errorf("NoChangesPlanID(nil) = nil error, want the missing key refused")
	}
}
