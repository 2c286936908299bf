package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
)

// TestStrictSubstitution runs validate on testdata/substitution: two
// Kustomizations with postBuild, each rendering a HelmRelease (an object
// strata does not run) with a variable nobody sets; one of them also
// renders the network stack. Without --strict-substitution the variables
// are empty, silently, as Flux's default; with it each is its
// Kustomization's problem, naming the variable and the file: a warning for
// apps, which brings in no stack, and the network stack blocked for
// stacks.
func TestStrictSubstitution(t *testing.T) {
	root := testkit.Copy(t, filepath.Join("testdata", "substitution"))
	env := filepath.Join(root, "clusters", "lab")
	podinfo := `apps/release.yaml: HelmRelease/podinfo: variable "PODINFO_REPLICAS" is not defined (fix: add it to postBuild.substitute of Kustomization apps in clusters/lab/apps.yaml`
	ingress := `stack network (stacks/network.yaml) is blocked: Kustomization stacks (clusters/lab/stacks.yaml): stacks/ingress.yaml: HelmRelease/ingress-nginx: variable "INGRESS_VERSION" is not defined`
	warnings := "warnings (they hold back no stack; --strict makes them problems):\n  " + podinfo
	t.Run("unset variables are empty, as Flux's default", func(t *testing.T) {
		out, errOut := checkRun(t, []string{"validate", env}, 0, []string{"is valid: 1 stacks in 1 layers"}, nil)
		for _, v := range []string{"PODINFO_REPLICAS", "INGRESS_VERSION", "warnings"} {
			if strings.Contains(out+errOut, v) {
				t.Errorf("strata validate %s says %q, want nothing of the unset variables:\n%s\n%s", env, v, out, errOut)
			}
		}
	})
	runCases(t, []cliCase{
		{"--strict-substitution: a warning of apps, the network stack blocked by stacks", []string{"validate", env, "--strict-substitution"}, 1,
			[]string{"has 1 blocked stack(s)", ingress, warnings}, []string{"1 stack(s) blocked"}},
		{"--help says so", []string{"validate", "--help"}, 0,
			[]string{"--strict-substitution", "is a problem of its Kustomization, which blocks the stacks it brings in, not an empty string; a warning when that Kustomization brings in no stack"}, nil},
	})
	// With a default for INGRESS_VERSION, only the apps' warning is left.
	testkit.EditFile(t, root, "stacks/ingress.yaml", "${INGRESS_VERSION}", "${INGRESS_VERSION:=4.10.0}")
	runCases(t, []cliCase{
		{"--strict-substitution with warnings alone", []string{"validate", env, "--strict-substitution"}, 0,
			[]string{"is valid: 1 stacks in 1 layers", warnings}, nil},
		{"--strict-substitution --strict", []string{"validate", env, "--strict-substitution", "--strict"}, 1,
			[]string{podinfo}, []string{"1 problem(s) found"}},
	})
}
