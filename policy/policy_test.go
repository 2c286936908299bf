package policy

import (
	"context"
	"strings"
	"testing"
)

// TestDefaultBundle runs the default bundle's Rego unit tests: every one
// must pass, and every rule of the bundle must have at least one, named
// test_<rule>_….
func TestDefaultBundle(t *testing.T) {
	ctx := context.Background()
	report, err := Test(ctx, nil, true)
	if err != nil {
		t.Fatalf("Test(nil, true) = %v, want nil", err)
	}
	for _, r := range report.Results {
		if !r.Pass {
			t.Errorf("%s.%s (%s): pass = false, fail = %v, error %q", r.Package, r.Name, r.File, r.Fail, r.Error)
		}
		if !strings.HasPrefix(r.File, DefaultBundleName+"/") {
			t.Errorf("%s.%s: file = %q, want under %s/", r.Package, r.Name, r.File, DefaultBundleName)
		}
	}
	if !report.Passed() {
		t.Errorf("Test(nil, true).Passed() = false, want true")
	}
	e, err := Load(ctx, Options{})
	if err != nil {
		t.Fatalf("Load(Options{}) = %v, want nil", err)
	}
	var rules []string
	for _, r := range e.rules {
		rules = append(rules, r.name)
	}
	if want := []string{"deny_delete", "deny_iam"}; strings.Join(rules, ",") != strings.Join(want, ",") {
		t.Errorf("default bundle rules = %v, want %v", rules, want)
	}
	for _, rule := range rules {
		n := 0
		for _, r := range report.Results {
			if strings.HasPrefix(r.Name, "test_"+rule+"_") && r.Pass {
				n++
			}
		}
		if n == 0 {
			t.Errorf("rule %s has no passing test named test_%s_…", rule, rule)
		}
		t.Logf("rule %s: %d passing tests", rule, n)
	}
}
