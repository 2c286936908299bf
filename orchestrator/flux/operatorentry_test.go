package flux

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/sopstest"
	"github.com/strata-iac/strata/internal/testkit"
)

// decryptionPatch is the patch a Flux Operator repository gives its sync
// Kustomization SOPS decryption with.
const decryptionPatch = `  kustomize:
    patches:
      - patch: |
          - op: add
            path: /spec/decryption
            value:
              provider: sops
              secretRef:
                name: sops-age
        target:
          group: kustomize.toolkit.fluxcd.io
          kind: Kustomization
`

func TestOperatorInstances(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string
	}{
		{
			name: "a FluxInstance",
			doc:  "apiVersion: fluxcd.controlplane.io/v1\nkind: FluxInstance\nmetadata: {name: flux, namespace: flux-system}\nspec:\n  sync: {kind: GitRepository, url: https://example.com/r, path: clusters/dev}\n" + decryptionPatch,
			want: []string{"flux-system clusters/dev 1"},
		},
		{
			name: "the chart's values file",
			doc:  "instance:\n  sync: {kind: GitRepository, url: https://example.com/r, path: ./clusters/dev, name: home}\n" + decryptionPatch,
			want: []string{"flux-system ./clusters/dev 1"},
		},
		{
			name: "a HelmRelease's values",
			doc:  "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: flux-instance, namespace: ops}\nspec:\n  values:\n    instance:\n      sync: {url: https://example.com/r, path: clusters/prod}\n",
			want: []string{"ops clusters/prod 0"},
		},
		{
			name: "a sync without a path",
			doc:  "instance:\n  sync: {url: https://example.com/r}\n",
		},
		{
			name: "another object's instance key",
			doc:  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ninstance:\n  sync: {path: clusters/dev}\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, in := range operatorInstances("f.yaml", []byte(tt.doc)) {
				got = append(got, strings.Join([]string{in.Namespace, in.Sync.Path, string(rune('0' + len(in.Patches)))}, " "))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("operatorInstances(%q) mismatch (-want +got):\n%s", tt.doc, diff)
			}
		})
	}
}

// TestSyncKustomization: the sync Kustomization gets its patches, as
// kustomize applies them for the operator; patches aimed elsewhere leave
// it as made.
func TestSyncKustomization(t *testing.T) {
	in := operatorInstances("f.yaml", []byte("instance:\n  sync: {kind: GitRepository, url: https://example.com/r, path: clusters/dev}\n"+decryptionPatch+`      - patch: |
          - op: add
            path: /spec/template/spec/containers/0/args/-
            value: --concurrent=10
        target:
          kind: Deployment
          name: (kustomize-controller|helm-controller)
`))
	if len(in) != 1 {
		t.Fatalf("operatorInstances() = %v, want one", in)
	}
	m, err := syncKustomization(in[0])
	if err != nil {
		t.Fatalf("syncKustomization() = %v", err)
	}
	want := map[string]any{
		"apiVersion": "kustomize.toolkit.fluxcd.io/v1",
		"kind":       "Kustomization",
		"metadata":   map[string]any{"name": "flux-system", "namespace": "flux-system"},
		"spec": map[string]any{
			"interval":   "10m",
			"path":       "clusters/dev",
			"prune":      true,
			"sourceRef":  map[string]any{"kind": "GitRepository", "name": "flux-system"},
			"decryption": map[string]any{"provider": "sops", "secretRef": map[string]any{"name": "sops-age"}},
		},
	}
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("syncKustomization() mismatch (-want +got):\n%s", diff)
	}
}

// TestDecryptOperatorEntry: an encrypted Secret in the entry directory of
// a repository that gives decryption to its sync Kustomization through a
// FluxInstance's patches is decrypted with the key, and without it is a
// warning; without the patch it is the problem it was.
func TestDecryptOperatorEntry(t *testing.T) {
	for _, tt := range []struct {
		name  string
		patch bool
		own   bool
		// problem is what a problem of the Secret says, "" for none.
		problem string
		// warning is what a warning of the Secret says, "" for none.
		warning string
	}{
		{name: "with the key", patch: true, own: true},
		{name: "without the key", patch: true, warning: "cannot decrypt Secret/credentials for Kustomization/flux-system (made by the Flux Operator of the sync in instance/values.yaml)"},
		{name: "no patch", own: true, problem: "Kustomization/flux-system (made by the Flux Operator of the sync in instance/values.yaml) has no spec.decryption"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			noAgeKeys(t)
			key, other := sopstest.NewAgeKey(t), sopstest.NewAgeKey(t)
			root := testkit.Copy(t, filepath.Join("testdata", "sops"))
			if err := os.Rename(filepath.Join(root, "secrets", "credentials.yaml"), filepath.Join(root, "clusters", "dev", "credentials.yaml")); err != nil {
				t.Fatal(err)
			}
			testkit.EditFile(t, root, "secrets/kustomization.yaml", "resources:\n  - credentials.yaml\n", "resources: []\n")
			values := "instance:\n  sync:\n    kind: GitRepository\n    url: https://example.com/home.git\n    path: clusters/dev\n"
			if tt.patch {
				values += decryptionPatch
			}
			testkit.WriteFile(t, filepath.Join(root, "instance", "values.yaml"), values)
			r := sopstest.Recipients{Age: []string{key.Recipient}}
			sopstest.EncryptFile(t, filepath.Join(root, "clusters", "dev", "credentials.yaml"), r, sopstest.KubernetesRegex)
			for _, f := range []string{"app.env", "token", "settings.env"} {
				sopstest.EncryptFile(t, filepath.Join(root, "secrets", f), r, "")
			}
			have := other
			if tt.own {
				have = key
			}
			l, _ := loadKeys(t, root, have.WriteKeyFile(t, filepath.Join(t.TempDir(), "age.agekey")))
			var problem, warning string
			for _, p := range l.sortedProblems() {
				if p.Object == "Secret/credentials" {
					problem = p.Message
				}
			}
			for _, w := range l.env.Warnings {
				if w.Object == "Secret/credentials" {
					warning = w.Message
				}
			}
			if !strings.Contains(problem, tt.problem) || (tt.problem == "") != (problem == "") {
				t.Errorf("Load(clusters/dev) problem of Secret/credentials = %q, want %q", problem, tt.problem)
			}
			if !strings.Contains(warning, tt.warning) || (tt.warning == "") != (warning == "") {
				t.Errorf("Load(clusters/dev) warning of Secret/credentials = %q, want %q", warning, tt.warning)
			}
			if tt.own && tt.patch {
				if creds := l.secret("", "credentials"); creds == nil || !creds.Private {
					t.Errorf("Secret credentials = %+v, want it decrypted and private", creds)
				}
			}
		})
	}
}
