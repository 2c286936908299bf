package flux

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/diag"
)

// withFile copies the bad_max_runners fixture (a valid environment but for
// maxRunners), fixes maxRunners, and replaces one line of one file.
func withFile(t *testing.T, file, old, new string) string {
	t.Helper()
	root := testkit.Copy(t, filepath.Join("testdata", "bad_max_runners"))
	for _, e := range []struct{ file, old, new string }{
		{initFile, `maxRunners: "many"`, `maxRunners: "2"`},
		{file, old, new},
	} {
		p := filepath.Join(root, e.file)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), e.old) {
			t.Fatalf("%s has no %q", e.file, e.old)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), e.old, e.new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestNames(t *testing.T) {
	const nameFix = "rename the Terraform to lowercase letters, digits, '-' and '.', starting and ending with a letter or digit, such as "
	tests := []struct {
		name          string
		file, old, nw string
		want          diag.Problems
	}{
		{
			name: "stack name climbing out", file: appTF, old: "name: app", nw: `name: "../../../../../x"`,
			want: diag.Problems{{
				File: appTF, Object: "Terraform/../../../../../x",
				Message: `metadata.name "../../../../../x" is not a valid Kubernetes object name: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
				Fix:     nameFix + `"x"`,
			}},
		},
		{
			name: "stack name with a slash", file: appTF, old: "name: app", nw: "name: team/foo",
			want: diag.Problems{{
				File: appTF, Object: "Terraform/team/foo",
				Message: `metadata.name "team/foo" is not a valid Kubernetes object name: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
				Fix:     nameFix + `"team-foo"`,
			}},
		},
		{
			name: "clientId climbing out", file: initFile, old: `clientId: "acme"`, nw: `clientId: "../../x"`,
			want: diag.Problems{{
				File: initFile, Object: initCM,
				Message: `data.clientId "../../x" is not a DNS-1123 label: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
				Fix:     `set clientId to lowercase letters, digits and '-', starting and ending with a letter or digit, such as "x", in ` + initFile,
			}},
		},
		{
			name: "environment with a dot", file: initFile, old: `environment: "stage"`, nw: `environment: "stage.eu"`,
			want: diag.Problems{{
				File: initFile, Object: initCM,
				Message: `data.environment "stage.eu" is not a DNS-1123 label: must not contain dots`,
				Fix:     `set environment to lowercase letters, digits and '-', starting and ending with a letter or digit, such as "stage-eu", in ` + initFile,
			}},
		},
		{
			name: "Kustomization in capitals", file: appFile, old: "name: app", nw: "name: App",
			want: diag.Problems{{
				File: appFile, Object: "Kustomization/App",
				Message: `metadata.name "App" is not a valid Kubernetes object name: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
				Fix:     `rename the Kustomization to lowercase letters, digits, '-' and '.', starting and ending with a letter or digit, such as "app"`,
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := loadProblems(t, withFile(t, tt.file, tt.old, tt.nw))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Load() with %s mismatch (-want +got):\n%s", tt.nw, diff)
			}
		})
	}
}

func TestSuggestName(t *testing.T) {
	tests := map[string]string{
		"app":                   "app",
		"../../../../../x":      "x",
		"team/foo":              "team-foo",
		"Team_Foo":              "team-foo",
		"a..b":                  "a.b",
		"-.-":                   "name",
		strings.Repeat("a", 70): strings.Repeat("a", 63),
	}
	for in, want := range tests {
		if got := suggestName(in); got != want {
			t.Errorf("suggestName(%q) = %q, want %q", in, got, want)
		}
	}
}
