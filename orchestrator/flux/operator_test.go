package flux

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOperatorSyncs: the GitRepository the Flux Operator makes of a
// FluxInstance's spec.sync, or of a flux-instance HelmRelease's
// values.instance.sync.
func TestOperatorSyncs(t *testing.T) {
	type got struct{ Namespace, Name, URL string }
	tests := []struct {
		name, doc string
		want      []got
	}{
		{"FluxInstance", "apiVersion: fluxcd.controlplane.io/v1\nkind: FluxInstance\nmetadata: {name: flux, namespace: ops}\nspec:\n  sync: {kind: GitRepository, url: 'https://git.example.invalid/a/b.git', path: clusters/x}\n",
			[]got{{"ops", "flux-system", "https://git.example.invalid/a/b.git"}}},
		{"HelmRelease values, a name of its own", "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: flux-instance}\nspec:\n  values:\n    instance:\n      sync: {name: fleet, kind: GitRepository, url: 'ssh://git@git.example.invalid/a/b'}\n",
			[]got{{"flux-system", "fleet", "ssh://git@git.example.invalid/a/b"}}},
		{"an OCIRepository sync is no checkout", "apiVersion: fluxcd.controlplane.io/v1\nkind: FluxInstance\nmetadata: {name: flux}\nspec:\n  sync: {kind: OCIRepository, url: 'oci://registry.example.invalid/x'}\n", nil},
		{"two documents, one without sync", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: sync}\ndata: {sync: x}\n---\napiVersion: fluxcd.controlplane.io/v1\nkind: FluxInstance\nmetadata: {name: flux}\nspec:\n  sync: {url: 'https://git.example.invalid/c'}\n",
			[]got{{"flux-system", "flux-system", "https://git.example.invalid/c"}}},
		{"not YAML", "sync: [", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out []got
			for _, g := range operatorSyncs("f.yaml", []byte(tt.doc)) {
				out = append(out, got{g.Metadata.Namespace, g.Name(), g.Spec.URL})
			}
			if diff := cmp.Diff(tt.want, out); diff != "" {
				t.Errorf("operatorSyncs(%s) diff (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}

// TestFindOperatorSourcesStops: a cancelled load reads no further.
func TestFindOperatorSourcesStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got, instances := findOperatorSources(ctx, "testdata"); got != nil || instances != nil {
		t.Errorf("findOperatorSources(cancelled, testdata) = %v, %v, want nothing", got, instances)
	}
}

// FuzzOperatorSyncs: no document makes the sync reader fail or spin.
func FuzzOperatorSyncs(f *testing.F) {
	f.Add([]byte("apiVersion: fluxcd.controlplane.io/v1\nkind: FluxInstance\nmetadata: {name: flux}\nspec:\n  sync: {url: 'https://x'}\n"))
	f.Add([]byte("a: &a [1]\nb: [*a, *a]\n---\nkind: HelmRelease\nspec: {values: {instance: {sync: {url: x}}}}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, g := range operatorSyncs("f.yaml", b) {
			if g.Spec.URL == "" || g.Name() == "" {
				t.Errorf("operatorSyncs(%q) = a GitRepository %+v without a url or a name", b, g)
			}
		}
	})
}
