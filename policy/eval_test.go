package policy

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// ruleAt is what the fixture tests compare: which rule held which resource.
type ruleAt struct{ Rule, Address string }

func rulesAt(fs []Finding) []ruleAt {
	out := []ruleAt{}
	for _, f := range fs {
		out = append(out, ruleAt{f.Rule, f.Address})
	}
	return out
}

func TestEvalFixtures(t *testing.T) {
	ctx := context.Background()
	const attachment = `module.app.aws_iam_role_policy_attachment.this["admin"]`
	tests := []struct {
		fixture     string
		allowed     []string // IAMAllowedModules
		wantDenies  []ruleAt
		wantAllowed bool
	}{
		{
			fixture:    "aws_iam_role_create.json",
			allowed:    []string{"module.iam_roles"},
			wantDenies: []ruleAt{{"deny_iam", "aws_iam_role.deployer"}},
		},
		{
			fixture:     "aws_iam_policy_update.json",
			allowed:     []string{"module.iam_roles"},
			wantDenies:  []ruleAt{},
			wantAllowed: true,
		},
		{
			fixture:    "aws_iam_policy_update.json",
			allowed:    []string{"module.iam"},
			wantDenies: []ruleAt{{"deny_iam", "module.iam_roles.aws_iam_policy.deploy"}},
		},
		{
			fixture:    "aws_iam_role_policy_attachment_delete.json",
			allowed:    []string{"module.iam_roles"},
			wantDenies: []ruleAt{{"deny_delete", attachment}, {"deny_iam", attachment}},
		},
		{
			fixture:    "terraform_data_replace.json",
			wantDenies: []ruleAt{{"deny_delete", "terraform_data.release"}},
		},
		{
			fixture:     "terraform_data_update.json",
			wantDenies:  []ruleAt{},
			wantAllowed: true,
		},
		{
			fixture:     "aws_s3_bucket_create.json",
			wantDenies:  []ruleAt{},
			wantAllowed: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.fixture+" allowing "+strings.Join(tt.allowed, ","), func(t *testing.T) {
			e, err := Load(ctx, Options{IAMAllowedModules: tt.allowed})
			if err != nil {
				t.Fatalf("Load() = %v, want nil", err)
			}
			d, err := e.Eval(ctx, fixture(t, tt.fixture), Meta{Stack: "iam"})
			if err != nil {
				t.Fatalf("Eval(%q) = %v, want nil", tt.fixture, err)
			}
			if diff := cmp.Diff(tt.wantDenies, rulesAt(d.Denies)); diff != "" {
				t.Errorf("Eval(%q) denies (-want +got):\n%s", tt.fixture, diff)
			}
			if got := d.Allowed(); got != tt.wantAllowed {
				t.Errorf("Eval(%q).Allowed() = %v, want %v", tt.fixture, got, tt.wantAllowed)
			}
			if len(d.Warnings)+len(d.Exceptions) != 0 {
				t.Errorf("Eval(%q) warnings, exceptions = %v, %v, want none", tt.fixture, d.Warnings, d.Exceptions)
			}
			for _, f := range d.Denies {
				if !strings.HasPrefix(f.Message, f.Address+": ") || !strings.Contains(f.Message, "approv") {
					t.Errorf("Eval(%q) message %q, want it to start with %q and say how to get it approved", tt.fixture, f.Message, f.Address+": ")
				}
			}
		})
	}
}

func TestEvalFinding(t *testing.T) {
	ctx := context.Background()
	e, err := Load(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := e.Eval(ctx, fixture(t, "aws_iam_role_create.json"), Meta{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Finding{{
		Rule:      "deny_iam",
		Namespace: "main",
		Address:   "aws_iam_role.deployer",
		Message: "aws_iam_role.deployer: creating IAM resources (aws_iam_role) outside an allowed module " +
			"(data.strata.iam.allowed_modules) needs a person's approval: review the plan, then approve its plan id, " +
			"or move the resource into an allowed module",
		Metadata: map[string]any{"type": "aws_iam_role", "actions": []any{"create"}, "module_address": ""},
	}}
	if diff := cmp.Diff(want, d.Denies); diff != "" {
		t.Errorf("Eval(aws_iam_role_create.json) denies (-want +got):\n%s", diff)
	}
}

// userRules are rules of a user's policy directory, in conftest's forms.
const userRules = `package main

# A warning in conftest's structured form, reading strata's key.
warn_drift contains {"msg": msg, "address": rc.address, "cause": input.strata.cause} if {
	input.strata.cause == "drift"
	some rc in input.resource_changes
	rc.change.actions != ["no-op"]
	msg := sprintf("%s changed outside of strata in %s", [rc.address, input.strata.stack])
}

# A plain string result.
warn_meta contains json.marshal(input.strata) if input.strata.stack == "meta"

# The plan exactly as tofu printed it: numbers are not rounded.
warn_big contains "big number kept" if input.big == 123456789012345678901234567890

# A team's own rule on contracts: no key of a prod contract may go.
warn_contract_removed contains msg if {
	some k in input.strata.contract.removed
	msg := sprintf("%s.%s.%s removed; read by %d consumer(s)", [input.strata.contract.name, k.section, k.name, count(input.strata.contract.consumers)])
}

# conftest's exception form exempts deny_delete when a stack is removed.
exception contains ["delete"] if input.strata.cause == "removed"
`

func TestEvalUserRules(t *testing.T) {
	ctx := context.Background()
	dir := writeDir(t, map[string]string{"user.rego": userRules})
	e, err := Load(ctx, Options{Dirs: []string{dir}})
	if err != nil {
		t.Fatalf("Load() = %v, want nil", err)
	}
	replace := fixture(t, "terraform_data_replace.json")
	deleteDeny := Finding{Rule: "deny_delete", Namespace: "main", Address: "terraform_data.release"}
	tests := []struct {
		name           string
		plan           []byte
		meta           Meta
		wantDenies     []Finding
		wantWarnings   []Finding
		wantExceptions []Finding
	}{
		{
			name:       "no user rule applies",
			plan:       replace,
			meta:       Meta{Stack: "app", Cause: "upgrade"},
			wantDenies: []Finding{deleteDeny},
		},
		{
			name:       "structured warning",
			plan:       replace,
			meta:       Meta{Stack: "app", Cause: "drift"},
			wantDenies: []Finding{deleteDeny},
			wantWarnings: []Finding{{
				Rule: "warn_drift", Namespace: "main", Address: "terraform_data.release",
				Message:  "terraform_data.release changed outside of strata in app",
				Metadata: map[string]any{"cause": "drift"},
			}},
		},
		{
			name:           "exception",
			plan:           replace,
			meta:           Meta{Stack: "app", Cause: "removed"},
			wantExceptions: []Finding{deleteDeny},
		},
		{
			name: "meta is the key strata, every field present",
			plan: []byte(`{"format_version":"1.2"}`),
			meta: Meta{Stack: "meta", Client: "acme", Environment: "dev", EnvironmentClass: "non-prod", Cause: "upgrade", FromVersion: "0.1.0", ToVersion: "0.2.0"},
			wantWarnings: []Finding{{
				Rule: "warn_meta", Namespace: "main",
				Message: `{"cause":"upgrade","client":"acme","contract":{"added":[],"changed":[],"consumers":[],"moved":[],"name":"","removed":[]},"environment":"dev","environmentClass":"non-prod","fromVersion":"0.1.0","interrupted":[],"stack":"meta","toVersion":"0.2.0"}`,
			}},
		},
		{
			name: "the contract facts",
			plan: []byte(`{"format_version":"1.2"}`),
			meta: Meta{Stack: "network", Contract: &Contract{
				Name:    "network",
				Removed: []ContractKey{{Section: "public", Name: "subnet_ids", Type: "list"}},
				Consumers: []ContractConsumer{{Stack: "cluster", Section: "public", Key: "subnet_ids", Why: "removed",
					File: "flux-apps/platform-stacks/cluster/terraform/main.tf", Line: 14}},
			}},
			wantWarnings: []Finding{{Rule: "warn_contract_removed", Namespace: "main", Message: "network.public.subnet_ids removed; read by 1 consumer(s)"}},
		},
		{
			name:         "numbers kept exactly",
			plan:         []byte(`{"format_version":"1.2","big":123456789012345678901234567890}`),
			wantWarnings: []Finding{{Rule: "warn_big", Namespace: "main", Message: "big number kept"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := e.Eval(ctx, tt.plan, tt.meta)
			if err != nil {
				t.Fatalf("Eval(%s) = %v, want nil", tt.name, err)
			}
			ignoreDenyText := cmpopts.IgnoreFields(Finding{}, "Metadata")
			clearDeny := func(fs []Finding) []Finding {
				out := []Finding{}
				for _, f := range fs {
					if f.Rule == "deny_delete" {
						f.Message = ""
					}
					out = append(out, f)
				}
				return out
			}
			opts := cmp.Options{cmpopts.EquateEmpty()}
			if diff := cmp.Diff(tt.wantDenies, clearDeny(d.Denies), opts, ignoreDenyText); diff != "" {
				t.Errorf("Eval(%s) denies (-want +got):\n%s", tt.name, diff)
			}
			if diff := cmp.Diff(tt.wantWarnings, d.Warnings, opts); diff != "" {
				t.Errorf("Eval(%s) warnings (-want +got):\n%s", tt.name, diff)
			}
			if diff := cmp.Diff(tt.wantExceptions, clearDeny(d.Exceptions), opts, ignoreDenyText); diff != "" {
				t.Errorf("Eval(%s) exceptions (-want +got):\n%s", tt.name, diff)
			}
			if got, want := d.Allowed(), len(tt.wantDenies) == 0; got != want {
				t.Errorf("Eval(%s).Allowed() = %v, want %v", tt.name, got, want)
			}
		})
	}
}

func TestEvalNoDefault(t *testing.T) {
	ctx := context.Background()
	dir := writeDir(t, map[string]string{"user.rego": userRules})
	e, err := Load(ctx, Options{Dirs: []string{dir}, NoDefault: true})
	if err != nil {
		t.Fatalf("Load(NoDefault) = %v, want nil", err)
	}
	d, err := e.Eval(ctx, fixture(t, "terraform_data_replace.json"), Meta{Stack: "app", Cause: "drift"})
	if err != nil {
		t.Fatalf("Eval() = %v, want nil", err)
	}
	if !d.Allowed() {
		t.Errorf("Eval() without the default bundle: denies = %v, want none", d.Denies)
	}
	if got := rulesAt(d.Warnings); !cmp.Equal(got, []ruleAt{{"warn_drift", "terraform_data.release"}}) {
		t.Errorf("Eval() warnings = %v, want warn_drift on terraform_data.release", got)
	}
}

// TestEvalNoPolicy: NoDefault without directories is no policy: a
// replace the default bundle denies is allowed, as the Tofu Controller
// applies every plan approvePlan: auto allows.
func TestEvalNoPolicy(t *testing.T) {
	ctx := context.Background()
	e, err := Load(ctx, Options{NoDefault: true})
	if err != nil {
		t.Fatalf("Load(NoDefault, no directory) = %v, want nil", err)
	}
	d, err := e.Eval(ctx, fixture(t, "terraform_data_replace.json"), Meta{Stack: "app"})
	if err != nil {
		t.Fatalf("Eval() = %v, want nil", err)
	}
	if !d.Allowed() || len(d.Warnings) != 0 {
		t.Errorf("Eval() with no policy = denies %v, warnings %v, want none", d.Denies, d.Warnings)
	}
}

func TestEvalResultForms(t *testing.T) {
	ctx := context.Background()
	plan := []byte(`{"format_version":"1.2","resource_changes":[]}`)
	tests := []struct {
		name   string
		rules  string
		want   []Finding
		denied bool
	}{
		{
			name:   "deny as a complete rule with a string",
			rules:  "deny := \"stop\" if input.format_version == \"1.2\"\n",
			want:   []Finding{{Rule: "deny", Namespace: "p", Message: "stop"}},
			denied: true,
		},
		{
			name:   "violation as a boolean",
			rules:  "violation if input.format_version == \"1.2\"\n",
			want:   []Finding{{Rule: "violation", Namespace: "p", Message: "violation is true"}},
			denied: true,
		},
		{
			name:  "false, undefined and empty results are no findings",
			rules: "deny_a := false\n\ndeny_b if false\n\ndeny_c contains \"\" if true\n\ndeny_d contains {\"msg\": \"\"} if true\n",
		},
		{
			name:   "exception as a set of names, in its own package only",
			rules:  "deny_one contains \"1\" if true\n\ndeny_two contains \"2\" if true\n\nexception contains \"one\" if true\n",
			want:   []Finding{{Rule: "deny_two", Namespace: "p", Message: "2"}},
			denied: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeDir(t, map[string]string{"p.rego": "package p\n\n" + tt.rules})
			e, err := Load(ctx, Options{Dirs: []string{dir}, NoDefault: true})
			if err != nil {
				t.Fatalf("Load() = %v, want nil", err)
			}
			d, err := e.Eval(ctx, plan, Meta{})
			if err != nil {
				t.Fatalf("Eval() = %v, want nil", err)
			}
			if diff := cmp.Diff(tt.want, d.Denies, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Eval() denies (-want +got):\n%s", diff)
			}
			if d.Allowed() == tt.denied {
				t.Errorf("Eval().Allowed() = %v, want %v", d.Allowed(), !tt.denied)
			}
		})
	}
}

func TestEvalErrors(t *testing.T) {
	ctx := context.Background()
	plan := fixture(t, "terraform_data_replace.json")
	tests := []struct {
		name    string
		rules   string // a user's rules in package main, on top of the bundle
		plan    []byte
		wantErr string
	}{
		{
			name:    "builtin type error on input",
			rules:   "deny_bad contains msg if {\n\tmsg := upper(input.resource_changes)\n}\n",
			plan:    plan,
			wantErr: "user.rego:4: eval_type_error: upper: operand 1 must be string but got array",
		},
		{
			name:    "conflicting values of a complete rule",
			rules:   "deny_two := v if {\n\tsome v in [\"a\", \"b\"]\n}\n",
			plan:    plan,
			wantErr: "eval policy data.main.deny_two: ",
		},
		{
			name:    "runtime error in an exception",
			rules:   "exception contains [upper(input.resource_changes)] if true\n",
			plan:    plan,
			wantErr: "eval policy data.main.exception: ",
		},
		{
			name:    "object result without msg",
			rules:   "warn_shape contains {\"message\": \"x\"} if true\n",
			plan:    plan,
			wantErr: `eval policy data.main.warn_shape: result {"message":"x"} has no string msg`,
		},
		{
			name:    "result of another type",
			rules:   "deny_number contains 42 if true\n",
			plan:    plan,
			wantErr: "eval policy data.main.deny_number: result 42 is neither a message nor an object with msg",
		},
		{
			name:    "exception of another shape",
			rules:   "exception contains {\"rule\": \"delete\"} if true\n",
			plan:    plan,
			wantErr: `eval policy data.main.exception: exception {"rule":"delete"}: want a set of lists of rule names`,
		},
		{name: "not JSON", plan: []byte("plan"), wantErr: "eval policy: decode plan: "},
		{name: "two JSON values", plan: []byte(`{"format_version":"1.2"} {}`), wantErr: "eval policy: decode plan: more than one JSON value"},
		{name: "not an object", plan: []byte(`[]`), wantErr: "eval policy: decode plan: "},
		{name: "not a plan", plan: []byte(`{"resource_changes":[]}`), wantErr: "eval policy: decode plan: no format_version"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opts Options
			if tt.rules != "" {
				opts.Dirs = []string{writeDir(t, map[string]string{"user.rego": "package main\n\n" + tt.rules})}
			}
			e, err := Load(ctx, opts)
			if err != nil {
				t.Fatalf("Load() = %v, want nil", err)
			}
			d, err := e.Eval(ctx, tt.plan, Meta{})
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Eval(%s) = %v, %v, want an error containing %q", tt.name, d, err, tt.wantErr)

			}
		})
	}
}

// TestEvalConcurrent judges plans from many goroutines with one engine.
func TestEvalConcurrent(t *testing.T) {
	ctx := context.Background()
	e, err := Load(ctx, Options{IAMAllowedModules: []string{"module.iam_roles"}})
	if err != nil {
		t.Fatal(err)
	}
	plans := map[string]bool{ // fixture -> allowed
		"aws_iam_role_create.json":                   false,
		"aws_iam_policy_update.json":                 true,
		"aws_iam_role_policy_attachment_delete.json": false,
		"terraform_data_replace.json":                false,
		"terraform_data_update.json":                 true,
		"aws_s3_bucket_create.json":                  true,
	}
	var wg sync.WaitGroup
	for range 4 {
		for name, allowed := range plans {
			plan := fixture(t, name)
			wg.Go(func() {
				d, err := e.Eval(ctx, plan, Meta{})
				if err != nil || d.Allowed() != allowed {
					t.Errorf("Eval(%q) = %v, %v, want Allowed() = %v", name, d, err, allowed)
				}
			})
		}
	}
	wg.Wait()
}

// TestDecisionJSON checks the shape callers and `strata policy eval -o json`
// print.
func TestDecisionJSON(t *testing.T) {
	d := Decision{Denies: []Finding{{Rule: "deny_delete", Namespace: "main", Address: "a.b", Message: "m"}}}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"denies":[{"rule":"deny_delete","namespace":"main","address":"a.b","message":"m"}],"warnings":null,"exceptions":null}`
	if string(b) != want {
		t.Errorf("json.Marshal(%v) = %s, want %s", d, b, want)
	}
}
