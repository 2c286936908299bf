package flux

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// TestFileMappings: spec.fileMappings take their content from a Secret of
// the repository; a missing Secret or key, a bad location or a path that
// leaves its location is a problem naming the file, the stack and the
// fix, and never the content.
func TestFileMappings(t *testing.T) {
	const (
		secretFile = "flux-apps/app/creds.yaml"
		secret     = `apiVersion: v1
kind: Secret
metadata: {name: creds}
stringData: {credentials: "SENTINEL-file"}
`
	)
	tf := func(mappings string) string {
		return baseRepo[appTF] + "  fileMappings:\n" + mappings
	}
	tests := []struct {
		name     string
		mappings string
		want     []environment.File
		problem  *diag.Problem
	}{
		{
			name:     "home and workspace",
			mappings: "    - {location: home, path: .aws/credentials, secretRef: {name: creds, key: credentials}}\n    - {location: workspace, path: conf/creds, secretRef: {name: creds, key: credentials}}\n",
			want: []environment.File{
				{Location: environment.FileHome, Path: ".aws/credentials", Source: "Secret creds key credentials", Content: []byte("SENTINEL-file")},
				{Location: environment.FileWorkspace, Path: "conf/creds", Source: "Secret creds key credentials", Content: []byte("SENTINEL-file")},
			},
		},
		{
			name:     "missing Secret",
			mappings: "    - {location: home, path: .x, secretRef: {name: gone, key: credentials}}\n",
			problem:  ptr(diag.MissingInput(appTF, appT, "spec.fileMappings[0]", kindSecret, DefaultNamespace, "gone", "credentials")),
		},
		{
			name:     "missing key",
			mappings: "    - {location: home, path: .x, secretRef: {name: creds, key: token}}\n",
			problem: &diag.Problem{
				File: appTF, Object: appT,
				Message: `spec.fileMappings[0] of stack app names key "token" of Secret creds (` + secretFile + `), which has no such key`,
				Fix:     "add key token to Secret creds in " + secretFile + ", or name one of its keys in " + appTF,
			},
		},
		{
			name:     "bad location",
			mappings: "    - {location: root, path: .x, secretRef: {name: creds, key: credentials}}\n",
			problem: &diag.Problem{
				File: appTF, Object: appT,
				Message: `spec.fileMappings[0] of stack app has location "root"`,
				Fix:     "set location to home or workspace in " + appTF,
			},
		},
		{
			name:     "path leaves its location",
			mappings: "    - {location: workspace, path: ../x, secretRef: {name: creds, key: credentials}}\n",
			problem: &diag.Problem{
				File: appTF, Object: appT,
				Message: `spec.fileMappings[0] of stack app has path "../x", which is not a path inside its location`,
				Fix:     "write a relative path of letters, digits, _, / and dots that stays inside the location, e.g. .aws/credentials in " + appTF,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeRepo(t, map[string]string{appTF: tf(tt.mappings), secretFile: secret})
			dir := filepath.Join(root, envDir)
			env, err := Load(context.Background(), dir)
			var ps diag.Problems
			if err != nil && !errors.As(err, &ps) {
				t.Fatalf("Load(%q) = %v, want problems or none", dir, err)
			}
			ps = untagged(environment.AllProblems(env, err))
			for _, p := range ps {
				if strings.Contains(p.Message+p.Fix, "SENTINEL") {
					t.Errorf("Load(%q) problem %v holds the Secret's content", dir, p)
				}
			}
			if tt.problem != nil {
				if diff := cmp.Diff(diag.Problems{*tt.problem}, ps); diff != "" {
					t.Errorf("Load(%q) problems diff (-want +got):\n%s", dir, diff)
				}
				return
			}
			if err != nil {
				t.Fatalf("Load(%q) = %v, want nil", dir, err)
			}
			if diff := cmp.Diff(tt.want, env.Stack("app").Run.Files); diff != "" {
				t.Errorf("Load(%q) stack app Run.Files diff (-want +got):\n%s", dir, diff)
			}
		})
	}
}

// TestFileString: a File prints where it goes and where it comes from,
// never its content.
func TestFileString(t *testing.T) {
	f := environment.File{Location: environment.FileHome, Path: ".x", Source: "Secret s key k", Content: []byte("SENTINEL")}
	for _, got := range []string{f.String(), fmtV(f), fmtGo(f)} {
		if strings.Contains(got, "SENTINEL") {
			t.Errorf("File printed = %q, want no content", got)
		}
	}
}

func fmtV(f environment.File) string  { return fmt.Sprintf("%v", f) }
func fmtGo(f environment.File) string { return fmt.Sprintf("%#v", f) }

func ptr[T any](v T) *T { return &v }
