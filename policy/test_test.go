package policy

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

const userTests = `package team

warn_untagged contains {"msg": "untagged", "address": rc.address} if {
	some rc in input.resource_changes
	not rc.change.after.tags
}

test_warn_untagged_passes if {
	count(warn_untagged) == 1 with input as {"resource_changes": [{"address": "a.b", "change": {"after": {}}}]}
}

test_warn_untagged_fails if {
	count(warn_untagged) == 2 with input as {"resource_changes": [{"address": "a.b", "change": {"after": {}}}]}
}

test_builtin_error if {
	upper(input.x) == "X" with input as {"x": 1}
}

todo_test_later if false

test_sees_bundle_data if {
	data.strata.iam.allowed_modules == []
}
`

func TestTest(t *testing.T) {
	ctx := context.Background()
	dir := writeDir(t, map[string]string{"team.rego": userTests})
	tests := []struct {
		name           string
		includeDefault bool
		want           []TestResult
	}{
		{
			name: "user tests only",
			want: []TestResult{
				{Package: "team", Name: "test_warn_untagged_passes", File: dir + "/team.rego:8", Pass: true},
				{Package: "team", Name: "test_warn_untagged_fails", File: dir + "/team.rego:12", Fail: true},
				{Package: "team", Name: "test_builtin_error", File: dir + "/team.rego:16", Fail: true, Error: "upper: operand 1 must be string but got number"},
				{Package: "team", Name: "todo_test_later", File: dir + "/team.rego:20", Skip: true},
				{Package: "team", Name: "test_sees_bundle_data", File: dir + "/team.rego:22", Pass: true},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			report, err := Test(ctx, []string{dir}, tt.includeDefault)
			if err != nil {
				t.Fatalf("Test(%q, %v) = %v, want nil", dir, tt.includeDefault, err)
			}
			errorContains := cmp.Comparer(func(a, b string) bool {
				return a == b || (a != "" && b != "" && (strings.Contains(a, b) || strings.Contains(b, a)))
			})
			if diff := cmp.Diff(tt.want, report.Results, cmpopts.IgnoreFields(TestResult{}, "Duration"), errorContains); diff != "" {
				t.Errorf("Test(%q, %v) (-want +got):\n%s", dir, tt.includeDefault, diff)
			}
			if report.Passed() {
				t.Errorf("Test(%q, %v).Passed() = true, want false", dir, tt.includeDefault)
			}
			if p, f, s := report.Counts(); p != 2 || f != 2 || s != 1 {
				t.Errorf("Test(%q, %v).Counts() = %d, %d, %d, want 2, 2, 1", dir, tt.includeDefault, p, f, s)
			}
		})
	}
}

func TestTestWithDefault(t *testing.T) {
	ctx := context.Background()
	dir := writeDir(t, map[string]string{"ok_test.rego": "package main\n\ntest_deny_delete_user_case if {\n\tcount(deny_delete) == 0 with input as {}\n}\n"})
	report, err := Test(ctx, []string{dir}, true)
	if err != nil {
		t.Fatalf("Test(%q, true) = %v, want nil", dir, err)
	}
	var bundle, user int
	for _, r := range report.Results {
		switch {
		case strings.HasPrefix(r.File, DefaultBundleName+"/"):
			bundle++
		case strings.HasPrefix(r.File, dir):
			user++
		}
	}
	if bundle == 0 || user != 1 || !report.Passed() {
		t.Errorf("Test(%q, true) = %d bundle tests, %d user tests, passed %v; want some, 1, true", dir, bundle, user, report.Passed())
	}
	// Without the bundle, the user's test cannot see deny_delete.
	if _, err := Test(ctx, []string{dir}, false); err == nil || !strings.Contains(err.Error(), "ok_test.rego:4") {
		t.Errorf("Test(%q, false) = %v, want an error naming ok_test.rego:4", dir, err)
	}
}

func TestTestErrors(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		files   map[string]string
		wantErr string
	}{
		{"parse error", map[string]string{"bad.rego": "package x\n\ntest_x if {\n"}, "bad.rego:4: rego_parse_error: unexpected eof token"},
		{"compile error", map[string]string{"bad.rego": "package x\n\ntest_x if nope(1)\n"}, "test policies: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeDir(t, tt.files)
			if _, err := Test(ctx, []string{dir}, false); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Test(%q, false) = %v, want an error containing %q", dir, err, tt.wantErr)
			}
		})
	}
}
