package modules_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/contracts/s3"
	"github.com/strata-iac/strata/contracts/ssm"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// module is one module's interface: the variables and outputs it declares.
type module struct {
	name      string
	variables []string
	outputs   []string
}

var modules = []module{
	{
		name:      "ssm_json_store",
		variables: []string{"data", "kms_key_id", "name", "path", "stack", "stack_version", "updated_at"},
		outputs:   []string{"arn", "document", "name", "values"},
	},
	{
		name:      "s3_json_store",
		variables: []string{"bucket", "data", "kms_key_id", "name", "path", "stack", "stack_version", "updated_at"},
		outputs:   []string{"bucket", "document", "key", "object_key", "values"},
	},
	{
		name:      "ssm_json_regex",
		variables: []string{"include_filter_regex", "path"},
		outputs:   []string{"public_values", "values"},
	},
}

// files every module has.
var files = []string{"main.tf", "variables.tf", "outputs.tf", "versions.tf", "README.md"}

var (
	variableRE = regexp.MustCompile(`(?m)^variable\s+"([^"]+)"`)
	outputRE   = regexp.MustCompile(`(?m)^output\s+"([^"]+)"`)
)

// tofu runs the real tofu in dir with a CLI configuration of its own and
// returns its combined output and error.
func tofu(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	cliConfig := filepath.Join(t.TempDir(), "tofurc")
	if err := os.WriteFile(cliConfig, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tofutest.Binary(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// mustTofu runs tofu and fails the test when it fails.
func mustTofu(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := tofu(t, dir, args...)
	if err != nil {
		t.Fatalf("tofu %q = %v, want success:\n%s", args, err, out)
	}
	return out
}

func TestFormatted(t *testing.T) {
	if out, err := tofu(t, ".", "fmt", "-check", "-recursive", "-diff", "-no-color", "."); err != nil {
		t.Errorf("tofu fmt -check -recursive -diff = %v, want the modules formatted (run tofu fmt -recursive modules):\n%s", err, out)
	}
}

func TestInterfaces(t *testing.T) {
	for _, m := range modules {
		t.Run(m.name, func(t *testing.T) {
			for _, f := range files {
				if _, err := os.Stat(filepath.Join(m.name, f)); err != nil {
					t.Errorf("Stat(%q) = %v, want every module to have %v", filepath.Join(m.name, f), err, files)
				}
			}
			tf, err := filepath.Glob(filepath.Join(m.name, "*.tf"))
			if err != nil {
				t.Fatal(err)
			}
			var variables, outputs []string
			for _, f := range tf {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				for _, sm := range variableRE.FindAllStringSubmatch(string(b), -1) {
					variables = append(variables, sm[1])
				}
				for _, sm := range outputRE.FindAllStringSubmatch(string(b), -1) {
					outputs = append(outputs, sm[1])
				}
			}
			slices.Sort(variables)
			slices.Sort(outputs)
			if diff := cmp.Diff(m.variables, variables); diff != "" {
				t.Errorf("variables of %s mismatch (-want +got):\n%s", m.name, diff)
			}
			if diff := cmp.Diff(m.outputs, outputs); diff != "" {
				t.Errorf("outputs of %s mismatch (-want +got):\n%s", m.name, diff)
			}
			readme, err := os.ReadFile(filepath.Join(m.name, "README.md"))
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range append(variables, outputs...) {
				if !strings.Contains(string(readme), "`"+name+"`") {
					t.Errorf("%s/README.md does not document `%s`", m.name, name)
				}
			}
			versions, err := os.ReadFile(filepath.Join(m.name, "versions.tf"))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{`required_version = ">= 1.6"`, `source  = "hashicorp/aws"`, `version = ">= 5.0"`} {
				if !strings.Contains(string(versions), want) {
					t.Errorf("%s/versions.tf lacks %s", m.name, want)
				}
			}
		})
	}
}

func TestSSMLimitsAreTheStoreLimits(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("ssm_json_store", "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		fmt.Sprintf(`tier   = local.size > %d ? "Advanced" : "Standard"`, ssm.MaxStandardSize),
		fmt.Sprintf("condition     = local.size <= %d", ssm.MaxSize),
		fmt.Sprintf("over the %d-byte limit of an SSM parameter (Advanced tier): publish fewer outputs", ssm.MaxSize),
		`type   = local.secure ? "SecureString" : "String"`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("ssm_json_store/main.tf lacks %q, which mirrors the ssm store", want)
		}
	}
}

// blocks returns the top-level blocks of a tofu-formatted file that keep
// picks, each whole, without the comments between them.
func blocks(t *testing.T, file string, keep func(block string) bool) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out, cur strings.Builder
	in := false
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if !in && strings.HasSuffix(strings.TrimSpace(line), "{") && !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "#") {
			in = true
		}
		if !in {
			continue
		}
		cur.WriteString(line)
		if strings.TrimRight(line, "\n") == "}" {
			in = false
			if keep(cur.String()) {
				out.WriteString(cur.String() + "\n")
			}
			cur.Reset()
		}
	}
	return out.String()
}

// harness makes a root module in a temporary directory that calls a copy
// of the module under test once per case: its variables.tf and the blocks
// keep picks from its main.tf, which must need no provider, plus extra
// HCL. cases maps a module call's name to its arguments.
func harness(t *testing.T, name string, keep func(string) bool, extra string, cases map[string]map[string]any) string {
	t.Helper()
	dir := t.TempDir()
	mod := filepath.Join(dir, "m")
	if err := os.Mkdir(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	vars, err := os.ReadFile(filepath.Join(name, "variables.tf"))
	if err != nil {
		t.Fatal(err)
	}
	body := string(vars) + "\n" + blocks(t, filepath.Join(name, "main.tf"), keep) + extra
	if err := os.WriteFile(filepath.Join(mod, "main.tf"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	writeCases(t, dir, cases)
	return dir
}

// writeCases writes the root module's calls, one per case, and an output
// of each call.
func writeCases(t *testing.T, dir string, cases map[string]map[string]any) {
	t.Helper()
	var root strings.Builder
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		fmt.Fprintf(&root, "module %q {\n  source = \"./m\"\n", name)
		for _, arg := range slices.Sorted(maps.Keys(cases[name])) {
			v, err := json.Marshal(cases[name][arg])
			if err != nil {
				t.Fatal(err)
			}
			// JSON is valid HCL for these values.
			fmt.Fprintf(&root, "  %s = %s\n", arg, v)
		}
		fmt.Fprintf(&root, "}\n\noutput %q {\n  value     = module.%s\n  sensitive = true\n}\n\n", name, name)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(root.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// outputs returns the root module's outputs, by name, as JSON.
func outputs(t *testing.T, dir string) map[string]json.RawMessage {
	t.Helper()
	var out map[string]struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal([]byte(mustTofu(t, dir, "output", "-json")), &out); err != nil {
		t.Fatal(err)
	}
	vals := map[string]json.RawMessage{}
	for k, v := range out {
		vals[k] = v.Value
	}
	return vals
}

// storeResult is what the store harness reports of one module call.
type storeResult struct {
	Key       string `json:"key"`
	ObjectKey string `json:"object_key"`
	JSON      string `json:"json"`
	Size      int    `json:"size"`
	Type      string `json:"type"`
	Tier      string `json:"tier"`
}

// storeOutputs are the harness's outputs of a store module: its locals, in
// the clear.
const storeOutputs = `
output "key" {
  value = local.key
}

output "object_key" {
  value = %s
}

output "json" {
  value = nonsensitive(local.json)
}

output "size" {
  value = %s
}

output "type" {
  value = %s
}

output "tier" {
  value = %s
}
`

// keepPure keeps the blocks of a store module that need no provider.
func keepPure(b string) bool {
	return strings.HasPrefix(b, "locals {") || strings.HasPrefix(b, `resource "terraform_data"`)
}

func TestStoreModulesWriteTheStoresDocument(t *testing.T) {
	big := strings.Repeat("é<&>", 700) // 4,200 bytes of JSON and more
	at := "2025-01-02T03:04:05Z"
	cases := map[string]map[string]any{
		"seed": {"name": "foo", "stack_version": "1.0.2", "data": map[string]any{
			"installed": true,
			"public":    map[string]any{},
			"private": map[string]any{"database": map[string]any{
				"database_name": "foo", "endpoint": "db.internal", "port": 5432,
			}},
		}},
		"public_only": {"name": "network", "stack": "net", "updated_at": at, "data": map[string]any{
			"public": map[string]any{"vpc_id": "vpc-1", "subnets": []string{"a", "b"}},
		}},
		"nested_at_root": {"path": "/", "name": "acme/api", "data": map[string]any{"installed": false}},
		"custom_path":    {"path": "/strata/contracts/", "name": "/base/", "data": map[string]any{"public": map[string]any{"big": big}}},
		"default_path":   {"path": "", "name": "x", "data": map[string]any{}},
	}
	for _, store := range []string{"ssm_json_store", "s3_json_store"} {
		t.Run(store, func(t *testing.T) {
			objectKey, size, typ, tier := "null", "null", "null", "null"
			if store == "s3_json_store" {
				objectKey = "local.object_key"
			} else {
				size, typ, tier = "local.size", "local.type", "local.tier"
			}
			dir := harness(t, store, keepPure, fmt.Sprintf(storeOutputs, objectKey, size, typ, tier), withBucket(store, cases))
			mustTofu(t, dir, "init", "-input=false", "-no-color")
			mustTofu(t, dir, "apply", "-auto-approve", "-input=false", "-no-color")
			first := map[string]contracts.Document{}
			for name, raw := range outputs(t, dir) {
				var r storeResult
				if err := json.Unmarshal(raw, &r); err != nil {
					t.Fatal(err)
				}
				d := checkDocument(t, store, name, cases[name], r)
				first[name] = d
			}

			// Unchanged content: no change planned, updatedAt kept.
			if out, err := tofu(t, dir, "plan", "-detailed-exitcode", "-input=false", "-no-color"); err != nil {
				t.Errorf("tofu plan of unchanged documents = %v, want no changes (exit 0):\n%s", err, out)
			}

			// Changed content: a new updatedAt for that document alone.
			time.Sleep(1100 * time.Millisecond)
			changed := maps.Clone(cases)
			changed["seed"] = map[string]any{"name": "foo", "stack_version": "1.0.3", "data": cases["seed"]["data"]}
			writeCases(t, dir, withBucket(store, changed))
			mustTofu(t, dir, "apply", "-auto-approve", "-input=false", "-no-color")
			for name, raw := range outputs(t, dir) {
				var r storeResult
				if err := json.Unmarshal(raw, &r); err != nil {
					t.Fatal(err)
				}
				d := checkDocument(t, store, name, changed[name], r)
				moved := !d.UpdatedAt.Equal(first[name].UpdatedAt)
				if wantMoved := name == "seed"; moved != wantMoved {
					t.Errorf("%s %s: updatedAt %v -> %v after a change of seed's version; want it to move: %v",
						store, name, first[name].UpdatedAt, d.UpdatedAt, wantMoved)
				}
			}
		})
	}
}

// withBucket adds the bucket argument to the cases of the s3 store.
func withBucket(store string, cases map[string]map[string]any) map[string]map[string]any {
	if store != "s3_json_store" {
		return cases
	}
	out := map[string]map[string]any{}
	for name, args := range cases {
		out[name] = map[string]any{"bucket": "contracts"}
		maps.Copy(out[name], args)
	}
	return out
}

// checkDocument checks one module call's result against what strata's
// stores write for the same arguments, and returns the document.
func checkDocument(t *testing.T, store, name string, args map[string]any, r storeResult) contracts.Document {
	t.Helper()
	path := "/configuration"
	if p, ok := args["path"].(string); ok && p != "" {
		path = p
	}
	wantKey := contracts.Key(path, args["name"].(string))
	if r.Key != wantKey {
		t.Errorf("%s %s: key = %q, want contracts.Key(%q, %q) = %q", store, name, r.Key, path, args["name"], wantKey)
	}
	if store == "s3_json_store" {
		wantObject, err := s3.ObjectKey(wantKey)
		if err != nil {
			t.Fatal(err)
		}
		if r.ObjectKey != wantObject {
			t.Errorf("%s %s: object key = %q, want s3.ObjectKey(%q) = %q", store, name, r.ObjectKey, wantKey, wantObject)
		}
	}
	if err := contracts.ValidateJSON([]byte(r.JSON)); err != nil {
		t.Errorf("%s %s: ValidateJSON(document) = %v, want nil:\n%s", store, name, err, r.JSON)
	}
	var got contracts.Document
	if err := json.Unmarshal([]byte(r.JSON), &got); err != nil {
		t.Fatalf("%s %s: the document is not JSON: %v", store, name, err)
	}
	data := args["data"].(map[string]any)
	installed, ok := data["installed"].(bool)
	if !ok {
		installed = true
	}
	stack, ok := args["stack"].(string)
	if !ok {
		stack = strings.Trim(args["name"].(string), "/")
	}
	version, _ := args["stack_version"].(string)
	want := contracts.Document{
		Installed: installed, Version: version, Stack: stack, UpdatedAt: got.UpdatedAt,
		Public: jsonMap(t, data["public"]), Private: jsonMap(t, data["private"]),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s %s: document mismatch (-want +got):\n%s", store, name, diff)
	}
	if at, ok := args["updated_at"].(string); ok && got.UpdatedAt.Format(time.RFC3339) != at {
		t.Errorf("%s %s: updatedAt = %v, want the updated_at given, %s", store, name, got.UpdatedAt, at)
	}
	if got.UpdatedAt.IsZero() || got.UpdatedAt.Location() != time.UTC || got.UpdatedAt.Nanosecond() != 0 {
		t.Errorf("%s %s: updatedAt = %v, want a UTC time to the second", store, name, got.UpdatedAt)
	}
	if store == "ssm_json_store" {
		size := len(r.JSON)
		if r.Size != size {
			t.Errorf("%s %s: size = %d, want the JSON's %d bytes (%d characters)", store, name, r.Size, size, utf8.RuneCountInString(r.JSON))
		}
		wantType, wantTier := "String", "Standard"
		if len(want.Private) > 0 {
			wantType = "SecureString"
		}
		if size > ssm.MaxStandardSize {
			wantTier = "Advanced"
		}
		if r.Type != wantType || r.Tier != wantTier {
			t.Errorf("%s %s: type, tier = %s, %s, want %s, %s (%d bytes, %d private keys)", store, name, r.Type, r.Tier, wantType, wantTier, size, len(want.Private))
		}
	}
	return got
}

// jsonMap is v as JSON decodes it, an empty map for nil.
func jsonMap(t *testing.T, v any) map[string]any {
	t.Helper()
	out := map[string]any{}
	if v == nil {
		return out
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestStoreModulesRefuseBadArguments(t *testing.T) {
	cases := map[string]struct {
		args map[string]any
		want string
	}{
		"empty_segment": {map[string]any{"name": "a//b", "data": map[string]any{}}, "The name must be one or more segments"},
		"dot_dot":       {map[string]any{"name": "x", "path": "/configuration/..", "data": map[string]any{}}, "The path must be segments"},
		"no_name":       {map[string]any{"name": "/", "data": map[string]any{}}, "The name must be one or more segments"},
		"list_public":   {map[string]any{"name": "x", "data": map[string]any{"public": []string{"a"}}}, "data.public and data.private must be objects"},
		"local_time":    {map[string]any{"name": "x", "data": map[string]any{}, "updated_at": "2025-01-02T03:04:05+02:00"}, "updated_at must be an RFC 3339 time in UTC"},
	}
	for _, store := range []string{"ssm_json_store", "s3_json_store"} {
		for name, tt := range cases {
			t.Run(store+"/"+name, func(t *testing.T) {
				dir := harness(t, store, keepPure, "", withBucket(store, map[string]map[string]any{name: tt.args}))
				mustTofu(t, dir, "init", "-input=false", "-no-color")
				out, err := tofu(t, dir, "plan", "-input=false", "-no-color")
				if err == nil || !strings.Contains(strings.Join(strings.Fields(out), " "), tt.want) {
					t.Errorf("tofu plan of %s with %v = %v, want an error containing %q:\n%s", store, tt.args, err, tt.want, out)
				}
			})
		}
	}
	t.Run("ssm_json_store/ssm_characters", func(t *testing.T) {
		dir := harness(t, "ssm_json_store", keepPure, "", map[string]map[string]any{"x": {"name": "a b", "data": map[string]any{}}})
		mustTofu(t, dir, "init", "-input=false", "-no-color")
		if out, err := tofu(t, dir, "plan", "-input=false", "-no-color"); err == nil || !strings.Contains(out, "as SSM parameter names allow") {
			t.Errorf("tofu plan of ssm_json_store with name %q = %v, want a validation error:\n%s", "a b", err, out)
		}
	})
}

// regexExtra stands in for the module's data source: the parameters the
// test gives, their values sensitive as the provider's are.
const regexExtra = `
variable "parameter_names" {
  type = list(string)
}

variable "parameter_values" {
  type      = list(string)
  sensitive = true
}

locals {
  parameter_names  = var.parameter_names
  parameter_values = var.parameter_values
}
`

func TestRegexModuleSelectsAsSelect(t *testing.T) {
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	docs := map[string]contracts.Document{}
	var names, values []string
	for _, key := range []string{
		"/configuration/base", "/configuration/foo", "/configuration/bar", "/configuration/database",
		"/configuration/foobar", "/configuration/acme/api", "/configurations/y", "/other/x",
	} {
		d := contracts.Document{Installed: true, Version: "1.0.0", Stack: filepath.Base(key), UpdatedAt: at,
			Public:  map[string]any{"domain": filepath.Base(key) + ".example", "port": 443.0},
			Private: map[string]any{"token": "SECRET-" + filepath.Base(key)}}
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		docs[key] = d
		names = append(names, key)
		values = append(values, string(b))
	}
	// A document another writer left without public and private: read
	// leniently, as strata does.
	docs["/configuration/bare"] = contracts.Document{Installed: true, Stack: "bare", UpdatedAt: at, Public: map[string]any{}, Private: map[string]any{}}
	names = append(names, "/configuration/bare")
	values = append(values, `{"installed":true,"version":"","stack":"bare","updatedAt":"2025-01-02T03:04:05Z"}`)

	tests := []struct {
		name, path, regex string
	}{
		{"seed", "/configuration", "(base|foo|bar)"},
		{"empty_regex", "/configuration", ""},
		{"default_regex", "/configuration", ".*"},
		{"nested", "/configuration", "acme/.*"},
		{"no_slash", "/configuration/", "[a-z]+"},
		{"prefix_only", "/configuration", "foo.*"},
		{"root", "/", ".*"},
		{"default_path", "", "ba.*"},
	}
	cases := map[string]map[string]any{}
	for _, tt := range tests {
		cases[tt.name] = map[string]any{"path": tt.path, "include_filter_regex": tt.regex, "parameter_names": names, "parameter_values": values}
	}
	keep := func(b string) bool { return strings.HasPrefix(b, "locals {") && !strings.Contains(b, "data.aws_") }
	outs, err := os.ReadFile(filepath.Join("ssm_json_regex", "outputs.tf"))
	if err != nil {
		t.Fatal(err)
	}
	dir := harness(t, "ssm_json_regex", keep, regexExtra+"\n"+string(outs), cases)
	mustTofu(t, dir, "init", "-input=false", "-no-color")
	mustTofu(t, dir, "apply", "-auto-approve", "-input=false", "-no-color")
	got := outputs(t, dir)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.path
			if path == "" {
				path = contracts.DefaultPrefix
			}
			want, err := contracts.Select(docs, path, tt.regex)
			if err != nil {
				t.Fatal(err)
			}
			var r struct {
				Values       map[string]contracts.Document `json:"values"`
				PublicValues map[string]map[string]any     `json:"public_values"`
			}
			if err := json.Unmarshal(got[tt.name], &r); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, r.Values); diff != "" {
				t.Errorf("ssm_json_regex(path %q, include_filter_regex %q).values mismatch with contracts.Select (-want +got):\n%s", tt.path, tt.regex, diff)
			}
			wantPublic := map[string]map[string]any{}
			for name, d := range want {
				wantPublic[name] = d.Public
			}
			if diff := cmp.Diff(wantPublic, r.PublicValues); diff != "" {
				t.Errorf("ssm_json_regex(path %q, include_filter_regex %q).public_values mismatch (-want +got):\n%s", tt.path, tt.regex, diff)
			}
		})
	}

	// values is sensitive and public_values is not.
	t.Run("sensitivity", func(t *testing.T) {
		writeRoot := func(output string) {
			b, err := os.ReadFile(filepath.Join(dir, "main.tf"))
			if err != nil {
				t.Fatal(err)
			}
			b = append(b, []byte(output)...)
			if err := os.WriteFile(filepath.Join(dir, "main.tf"), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		writeRoot("output \"public_in_the_clear\" {\n  value = module.seed.public_values\n}\n")
		out := mustTofu(t, dir, "apply", "-auto-approve", "-input=false", "-no-color")
		if strings.Contains(out, "SECRET-") {
			t.Errorf("tofu apply shows a private value:\n%s", out)
		}
		writeRoot("output \"values_in_the_clear\" {\n  value = module.seed.values\n}\n")
		out, err := tofu(t, dir, "plan", "-input=false", "-no-color")
		if err == nil || !strings.Contains(out, "Output refers to sensitive values") {
			t.Errorf("tofu plan with values in an output not marked sensitive = %v, want an error that it is sensitive:\n%s", err, out)
		}
	})

	t.Run("bad regex", func(t *testing.T) {
		bad := harness(t, "ssm_json_regex", keep, regexExtra+"\n"+string(outs), map[string]map[string]any{
			"bad": {"include_filter_regex": "a)|(b", "parameter_names": names, "parameter_values": values},
		})
		mustTofu(t, bad, "init", "-input=false", "-no-color")
		out, err := tofu(t, bad, "plan", "-input=false", "-no-color")
		var ee *exec.ExitError
		if !errors.As(err, &ee) || !strings.Contains(out, "include_filter_regex must be a valid RE2 regular expression") {
			t.Errorf("tofu plan with include_filter_regex %q = %v, want a validation error:\n%s", "a)|(b", err, out)
		}
	})
}
