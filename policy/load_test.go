package policy

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLoad(t *testing.T) {
	ctx := context.Background()
	rule := "package main\n\nwarn_x contains \"x\" if input.format_version\n"
	tests := []struct {
		name      string
		files     map[string]string // the user's directory, when not nil
		dir       string            // the user's directory, when files is nil
		noDefault bool
		wantRules []string // namespace.rule, on success
		wantErr   []string // parts of the error, on failure
	}{
		{name: "default bundle", wantRules: []string{"main.deny_delete", "main.deny_iam"}},
		{
			name: "user rules on top, in any package",
			files: map[string]string{
				"warn.rego":       rule,
				"sub/tags.rego":   "package strata.tags\n\nviolation_tags contains \"t\" if false\n\nhelper := 1\n",
				"sub/tags.yaml":   "required: [client]\n",
				".hidden/x.rego":  "this is not rego",
				"README.md":       "not loaded",
				"plan.tfplan.bin": "not loaded",
			},
			wantRules: []string{"main.deny_delete", "main.deny_iam", "main.warn_x", "strata.tags.violation_tags"},
		},
		{
			name:      "no default",
			files:     map[string]string{"warn.rego": rule},
			noDefault: true,
			wantRules: []string{"main.warn_x"},
		},
		{
			name:      "a rule defined in two files counts once",
			files:     map[string]string{"a.rego": rule, "b.rego": strings.Replace(rule, `"x"`, `"y"`, 1)},
			noDefault: true,
			wantRules: []string{"main.warn_x"},
		},
		{
			name:    "parse error names the file and line",
			files:   map[string]string{"bad.rego": "package main\n\ndeny contains msg if {\n  msg := \n}\n"},
			wantErr: []string{"load policy dir ", "bad.rego:5: rego_parse_error: unexpected } token"},
		},
		{
			name:    "compile error names the file and line",
			files:   map[string]string{"bad.rego": "package main\n\ndeny_x contains msg if {\n  msg := undefined_function(input)\n}\n"},
			wantErr: []string{"compile policies: ", "bad.rego:4: rego_type_error: undefined function undefined_function"},
		},
		{
			name:    "v0 syntax is an error",
			files:   map[string]string{"old.rego": "package main\n\ndeny[msg] {\n  msg := \"x\"\n}\n"},
			wantErr: []string{"old.rego:3: rego_parse_error"},
		},
		{
			name:    "missing directory",
			dir:     filepath.Join("testdata", "no-such-dir"),
			wantErr: []string{"load policy dir testdata/no-such-dir: ", "no such file or directory"},
		},
		{
			name:      "no rule at all",
			files:     map[string]string{"lib.rego": "package lib\n\nx := 1\n"},
			noDefault: true,
			wantErr:   []string{"no deny, violation or warn rule found"},
		},
		{
			name:    "data defined twice",
			files:   map[string]string{"a/data.json": `{"k": 1}`, "data.json": `{"a": {"k": 2}}`},
			wantErr: []string{"load policy dir ", "conflicting values at data.a.k"},
		},
		{
			name:    "allow-list of the wrong type",
			files:   map[string]string{"data.yaml": "strata:\n  iam:\n    allowed_modules: module.iam\n"},
			wantErr: []string{"data.strata.iam.allowed_modules: want a list of module address prefixes"},
		},
		{
			name:    "data conflicting with the bundle's",
			files:   map[string]string{"data.json": `{"strata": {"iam": 1}}`},
			wantErr: []string{"data.strata.iam is defined twice"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{NoDefault: tt.noDefault}
			switch {
			case tt.files != nil:
				opts.Dirs = []string{writeDir(t, tt.files)}
			case tt.dir != "":
				opts.Dirs = []string{tt.dir}
			}
			e, err := Load(ctx, opts)
			if tt.wantErr != nil {
				if err == nil {
					t.Fatalf("Load(%+v) = nil error, want one containing %q", opts, tt.wantErr)
				}
				for _, w := range tt.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("Load(%+v) = %v, want an error containing %q", opts, err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("Load(%+v) = %v, want nil", opts, err)
			}
			var got []string
			for _, r := range e.rules {
				got = append(got, r.namespace+"."+r.name)
			}
			if diff := cmp.Diff(tt.wantRules, got); diff != "" {
				t.Errorf("Load(%+v) rules (-want +got):\n%s", opts, diff)
			}
		})
	}
}

func TestLoadAllowList(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		files   map[string]string
		dirs    int // how many copies of files to load
		allowed []string
		want    []any
	}{
		{name: "default: empty", want: []any{}},
		{name: "options", allowed: []string{"module.iam", "module.sso"}, want: []any{"module.iam", "module.sso"}},
		{
			name:    "data files, then options, without repeats",
			files:   map[string]string{"data.yaml": "strata:\n  iam:\n    allowed_modules: [module.iam, module.a]\n"},
			dirs:    2,
			allowed: []string{"module.b", "module.iam"},
			want:    []any{"module.iam", "module.a", "module.b"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var dirs []string
			for range tt.dirs {
				dirs = append(dirs, writeDir(t, tt.files))
			}
			src, err := load(ctx, dirs, true, tt.allowed)
			if err != nil {
				t.Fatalf("load(%v, true, %v) = %v, want nil", dirs, tt.allowed, err)
			}
			got := src.data["strata"].(map[string]any)["iam"].(map[string]any)["allowed_modules"]
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("load(%v, true, %v) allowed_modules (-want +got):\n%s", dirs, tt.allowed, diff)
			}
		})
	}
}
