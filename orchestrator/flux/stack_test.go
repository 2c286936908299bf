package flux

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/tofucontroller"
)

// TestCheckModuleDir: a stack's spec.path in this repository holds code
// when it has a file tofu reads a module from, of any of its four kinds;
// hidden and backup files are not code.
func TestCheckModuleDir(t *testing.T) {
	tests := []struct {
		name  string
		files []string
		want  string // the problem's message; "" for none
	}{
		{"tf", []string{"main.tf"}, ""},
		{"tf.json", []string{"main.tf.json"}, ""},
		{"tofu", []string{"main.tofu"}, ""},
		{"tofu.json", []string{"main.tofu.json"}, ""},
		{"no code", []string{"README.md", ".hidden.tofu", "main.tf~", "x.tfvars"}, `spec.path "./stack" holds no .tf, .tf.json, .tofu or .tofu.json files`},
		{"code only in a subdirectory", []string{"modules/m/main.tofu"}, `spec.path "./stack" holds no .tf, .tf.json, .tofu or .tofu.json files`},
		{"no directory", nil, `spec.path "./stack" is not a directory of this repository`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for _, f := range append(tt.files, "../other/keep") {
				p := filepath.Join(root, "stack", f)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			l := newLoader(context.Background(), root, "e")
			tf := &terraform{Spec: &tofucontroller.Spec{Path: "./stack"}}
			tf.Kind, tf.Metadata.Name, tf.File = kindTerraform, "t", "t.yaml"
			l.checkModuleDir(tf, "stack")
			var got string
			if ps := l.sortedProblems(); len(ps) > 0 {
				got = ps[0].Message
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("checkModuleDir(%q) diff (-want +got):\n%s", tt.files, diff)
			}
			// Another stack of the same module, once the directory is
			// gone: the load's listing stands, for that stack's file.
			if err := os.RemoveAll(filepath.Join(root, "stack")); err != nil {
				t.Fatal(err)
			}
			other := &terraform{Spec: &tofucontroller.Spec{Path: "./stack"}}
			other.Kind, other.Metadata.Name, other.File = kindTerraform, "u", "u.yaml"
			l.problems = nil
			l.checkModuleDir(other, "stack")
			got = ""
			if ps := l.sortedProblems(); len(ps) > 0 {
				got = ps[0].File + ": " + ps[0].Message
			}
			want := ""
			if tt.want != "" {
				want = "u.yaml: " + tt.want
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("checkModuleDir(%q) of a second stack diff (-want +got):\n%s", tt.files, diff)
			}
		})
	}
}

// TestRenderedTerraformForgotten: once buildStack lets go of a Terraform
// object's rendered JSON, what the loader read in it still holds: whether
// two Kustomizations that apply it render it alike, and whether it uses a
// postBuild variable, which decides if it waits with a Kustomization that
// waits for what it substitutes from.
func TestRenderedTerraformForgotten(t *testing.T) {
	kustomization := func(name, postBuild string) string {
		return `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: ` + name + `}
spec:
  path: ./flux-apps/app
  sourceRef: {kind: GitRepository, name: flux-system}
  postBuild:
` + postBuild
	}
	terraform := func(region string) string {
		return `apiVersion: infra.contrib.fluxcd.io/v1alpha2
kind: Terraform
metadata: {name: app}
spec:
  path: ./flux-apps/app
  sourceRef: {kind: GitRepository, name: flux-system}
  vars: [{name: region, value: "` + region + `"}]
`
	}
	load := func(t *testing.T, changes map[string]string) *environment.Environment {
		t.Helper()
		dir := filepath.Join(writeRepo(t, changes), envDir)
		env, err := Load(context.Background(), dir)
		var ps diag.Problems
		if err != nil && !errors.As(err, &ps) {
			t.Fatalf("Load(%q) = %v, want the environment", dir, err)
		}
		return env
	}
	warned := func(env *environment.Environment, what string) bool {
		return slices.ContainsFunc(env.Warnings, func(p diag.Problem) bool {
			return strings.Contains(p.Message, "is applied by Kustomization app and by Kustomization app2 ("+what+")")
		})
	}
	t.Run("applied alike", func(t *testing.T) {
		env := load(t, map[string]string{envDir + "/apps/app2.yaml": kustomization("app2", "    substitute: {region: eu-central-1}\n")})
		if !warned(env, "the same object") {
			t.Errorf("Load() warnings = %v, want Terraform app applied by app and app2 as the same object", env.Warnings)
		}
	})
	t.Run("applied with other content", func(t *testing.T) {
		env := load(t, map[string]string{envDir + "/apps/app2.yaml": kustomization("app2", "    substitute: {region: us-east-1}\n")})
		if !warned(env, "with other content after substitution") {
			t.Errorf("Load() warnings = %v, want Terraform app applied by app and app2 with other content", env.Warnings)
		}
	})
	waiting := kustomization("app", "    substituteFrom: [{kind: ConfigMap, name: init}, {kind: ConfigMap, name: cluster-settings}]\n")
	tests := []struct {
		name, region string
		blocked      bool
	}{
		{"a variable: it waits with its Kustomization", "${zone}", true},
		{"no variable: it is the same whatever the cluster holds", "eu-central-1", false},
		{"a variable with a default, substituted away: the input may set it, so it waits", "${zone:=eu-central-1}", true},
		{"a variable an input at hand sets: the input waited for may set it too, so it waits", "${clientId}", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := load(t, map[string]string{appFile: waiting, appTF: terraform(tt.region)})
			blocked := slices.ContainsFunc(env.Blocked, func(b environment.Blocked) bool { return b.Stack == "app" })
			loaded := slices.ContainsFunc(env.Stacks, func(s *environment.Stack) bool { return s.Name == "app" })
			if blocked != tt.blocked || loaded == tt.blocked {
				t.Errorf("Load() stack app blocked %v, loaded %v; want blocked %v (blocked: %+v)", blocked, loaded, tt.blocked, env.Blocked)
			}
		})
	}
}
