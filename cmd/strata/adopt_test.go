package main

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	gogit "github.com/go-git/go-git/v5"
	gitconfig "github.com/go-git/go-git/v5/config"

	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// adoptOrigin is the remote of the adopt repository's checkout: the url
// of the GitRepository the Flux Operator makes of its FluxInstance.
const adoptOrigin = "https://git.example.invalid/edge/fleet.git"

// adoptRepo copies testdata/adopt, a repository of the patterns real Flux
// repositories hold, as a checkout whose origin is adoptOrigin:
//   - every Kustomization reads GitRepository edge-fleet, which the Flux
//     Operator makes of a flux-instance HelmRelease's values.instance.sync;
//   - a Component with a Secret that two namespaces include (two objects);
//   - one directory of stacks reached through two Kustomizations (one
//     stack, queue, at infra.contrib.fluxcd.io/v1alpha1);
//   - a backendConfigsFrom Secret (records) and a runner envFrom Secret
//     (bucket, which an ExternalSecret of the repository makes) that live
//     in the cluster;
//   - a Kustomization (services) that substitutes from a SOPS-encrypted
//     Secret whose key only the cluster holds: cache uses a variable and
//     waits, static uses none and does not;
//   - a Kustomization with a remote base and no stack (controller) that
//     stacks depend on, and one of another repository (vendor-crds).
//
// The encrypted Secret is written here, for an age key then thrown away.
func adoptRepo(t *testing.T) string {
	t.Helper()
	root := sopsFixture(t, "adopt", "secrets/edge-secrets.sops.yaml",
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: edge-secrets\n  namespace: flux-system\nstringData:\n  CACHE_SIZE: \"1024\"\n")
	r, err := gogit.PlainInit(root, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.CreateRemote(&gitconfig.RemoteConfig{Name: "origin", URLs: []string{adoptOrigin}}); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestAdoptRepository reads the adopt repository as Flux would, unchanged:
// without inputs every stack is known, those that need what lives in the
// cluster wait in their places in the graph, and validate exits 0; the
// objects reached twice are one, with a warning; with --inputs every
// stack plans with real tofu.
func TestAdoptRepository(t *testing.T) {
	root := adoptRepo(t)
	env := filepath.Join(root, "clusters", "edge")
	inputs := filepath.Join(root, "inputs")
	state := t.TempDir()
	tofuBin := tofutest.Binary(t)
	waitingRecords := "stack records (stacks/team/records.yaml) is waiting: stacks/team/records.yaml: Terraform/records: waiting for input Secret/flux-system/records-backend (spec.backendConfigsFrom[0])"
	waitingBucket := "stack bucket (stacks/team/bucket.yaml) is waiting: stacks/team/bucket.yaml: Terraform/bucket: waiting for input Secret/flux-system/bucket-credentials (spec.runnerPodTemplate.spec.envFrom[0]): ExternalSecret/flux-system/bucket (stacks/team/credentials.yaml) makes it in the cluster; give it with --inputs or --kubeconfig"
	waitingCache := "stack cache (services/cache.yaml) is waiting: Kustomization services (clusters/edge/services.yaml): clusters/edge/services.yaml: Kustomization/services: waiting for input Secret/flux-system/edge-secrets (postBuild.substituteFrom): it is SOPS-encrypted in secrets/edge-secrets.sops.yaml, and strata holds no key to it"
	waitingVendor := "Kustomization vendor-crds (clusters/edge/vendor.yaml) is waiting: clusters/edge/vendor.yaml: Kustomization/vendor-crds: waiting for source GitRepository/vendor-crds (https://git.example.invalid/vendor/crds.git)"
	ownership := "stacks/shared/queue.yaml: Terraform/queue: Terraform flux-system/queue is applied by Kustomization shared-stacks and by Kustomization shared-stacks-again (the same object)"
	tests := []cliCase{
		{"validate: what lives in the cluster is waited for", []string{"validate", env}, 0, []string{
			"/edge (non-prod) is valid: 2 stacks in 1 layers, 0 dependencies, and 3 stack(s) waiting for inputs",
			waitingRecords, waitingBucket, waitingCache, waitingVendor, ownership,
			"controller/kustomization.yaml: cannot fetch the remote resource \"https://controller.example.invalid/releases/v1.0.0/crds.yaml\"",
		}, nil},
		{"validate with the inputs", []string{"validate", env, "--inputs", inputs}, 0, []string{
			"is valid: 5 stacks in 1 layers, 0 dependencies", waitingVendor,
		}, nil},
		// vendor-crds still waits for its source: a partial run, exit 4.
		{"plan with the inputs", []string{"plan", env, "--inputs", inputs, "--tofu", tofuBin, "--state-dir", state}, 4, []string{
			"INFO [queue] plan: 1 to add", "INFO [records] plan: 1 to add", "INFO [bucket] plan: 1 to add", "INFO [cache] plan: 1 to add",
			"INFO [static] plan: 1 to add", "5 planned, 1 waiting",
		}, nil},
	}
	// What must not be said, by case.
	notOut := [][]string{
		{"defined twice", "used twice", "blocked"},
		{"stack records", "stack bucket", "stack cache", "blocked"},
		{"blocked"},
	}
	var seen strings.Builder
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut := checkRun(t, tt.args, tt.wantCode, tt.wantOut, tt.wantErr)
			seen.WriteString(out + errOut)
			for _, w := range notOut[i] {
				if strings.Contains(out, w) {
					t.Errorf("strata %q stdout holds %q:\n%s", tt.args, w, out)
				}
			}
		})
	}
	for _, s := range []string{"SENTINEL-adopt-bucket-token", "1024"} {
		if strings.Contains(seen.String(), s) {
			t.Errorf("%q appears in strata's output:\n%s", s, seen.String())
		}
	}

	t.Run("graph -o json places the waiting stacks", func(t *testing.T) {
		out, errOut, code := strata(t, "graph", env, "-o", "json")
		if code != 0 {
			t.Fatalf("strata graph -o json exit code = %d, want 0:\n%s\n%s", code, out, errOut)
		}
		var nodes []struct {
			Stack   string `json:"stack"`
			Waiting bool   `json:"waiting"`
			Inputs  []struct {
				Kind, Namespace, Name string
				Keys                  []string
			} `json:"inputs"`
		}
		if err := json.Unmarshal([]byte(out), &nodes); err != nil {
			t.Fatalf("strata graph -o json = %v:\n%s", err, out)
		}
		got := map[string]string{}
		for _, n := range nodes {
			var ins []string
			for _, in := range n.Inputs {
				ins = append(ins, in.Kind+"/"+in.Namespace+"/"+in.Name+"["+strings.Join(in.Keys, ",")+"]")
			}
			got[n.Stack] = strings.Join(ins, " ")
			if n.Waiting != (len(n.Inputs) > 0) {
				t.Errorf("graph node %s: waiting %v with inputs %v", n.Stack, n.Waiting, n.Inputs)
			}
		}
		want := map[string]string{
			"queue":   "",
			"records": "Secret/flux-system/records-backend[workspace_dir]",
			"bucket":  "Secret/flux-system/bucket-credentials[]",
			"cache":   "Secret/flux-system/edge-secrets[]",
			"static":  "",
		}
		for k, v := range want {
			if g, ok := got[k]; !ok || g != v {
				t.Errorf("graph -o json node %s inputs = %q (present %v), want %q", k, g, ok, v)
			}
		}
		if len(nodes) != len(want) {
			t.Errorf("graph -o json has %d nodes (%v), want %d: an object reached twice is one", len(nodes), slices.Sorted(maps.Keys(got)), len(want))
		}
	})

	t.Run("validate -o json names each input", func(t *testing.T) {
		out, _, code := strata(t, "validate", env, "-o", "json")
		if code != 0 {
			t.Fatalf("strata validate -o json exit code = %d, want 0:\n%s", code, out)
		}
		for _, w := range []string{`"input": {`, `"kind": "Secret"`, `"name": "records-backend"`, `"keys": [`, `"workspace_dir"`} {
			if !strings.Contains(out, w) {
				t.Errorf("strata validate -o json lacks %s:\n%s", w, out)
			}
		}
	})
}
