package orchestrator_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/sopstest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator"
	"github.com/strata-iac/strata/orchestrator/decryption"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// TestFidelityRepositoriesApply validates, graphs and applies each
// repository of testdata/fidelity from its own entry point: the seed
// layout, a Flux bootstrap (clusters/dev → Kustomizations → overlays with
// patches → Terraform objects, and a SOPS-encrypted credentials Secret an
// age key decrypts) and a monorepo with components and a
// configMapGenerator. Every stack is installed, in graph order.
func TestFidelityRepositoriesApply(t *testing.T) {
	tofu := tofutest.Binary(t)
	tests := []struct {
		repo  string
		entry string
		edges map[string][]string
		want  map[string]string
		// encrypted is a Secret the test encrypts with sops for a fresh
		// age key, which strata is given as --sops-age-key-file.
		encrypted string
	}{
		{
			repo: "seed", entry: "environments/acme/dev",
			edges: map[string][]string{"app": {"network"}, "network": nil},
			want:  map[string]string{"network": "applied/install", "app": "applied/install"},
		},
		{
			repo: "bootstrap", entry: "clusters/dev",
			edges:     map[string][]string{"app": {"network"}, "network": nil},
			want:      map[string]string{"network": "applied/install", "app": "applied/install"},
			encrypted: "secrets/dev/credentials.yaml",
		},
		{
			repo: "monorepo", entry: "clusters/prod",
			edges: map[string][]string{"app": nil},
			want:  map[string]string{"app": "applied/install"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.repo, func(t *testing.T) {
			root := fixture(t, filepath.Join("fidelity", tt.repo))
			dir := filepath.Join(root, filepath.FromSlash(tt.entry))
			ctx := context.Background()
			if tt.encrypted != "" {
				key := sopstest.NewAgeKey(t)
				sopstest.EncryptFile(t, filepath.Join(root, filepath.FromSlash(tt.encrypted)), sopstest.Recipients{Age: []string{key.Recipient}}, sopstest.KubernetesRegex)
				ctx = decryption.WithKeys(ctx, decryption.Keys{AgeKeyFile: key.WriteKeyFile(t, filepath.Join(t.TempDir(), "age.agekey"))})
			}
			_, g, err := orchestrator.Validate(ctx, dir)
			if err != nil {
				t.Fatalf("Validate(%s) = %v, want no problem", tt.entry, err)
			}
			edges := map[string][]string{}
			for _, n := range g.Nodes() {
				var to []string
				for _, e := range n.Deps {
					if !slices.Contains(to, e.To) {
						to = append(to, e.To)
					}
				}
				edges[n.Name] = to
			}
			if diff := cmp.Diff(tt.edges, edges); diff != "" {
				t.Errorf("graph of %s mismatch (-want +got):\n%s", tt.entry, diff)
			}
			var logs testkit.Buffer
			rep, err := orchestrator.Reconcile(ctx, dir, history.OperationApply, orchestrator.Options{
				Tofu: tofu, StateDir: t.TempDir(), MaxRunners: 2, DriftInterval: time.Hour, Logger: runlog.New(&logs, nil),
			})
			if err != nil {
				t.Fatalf("Reconcile(%s, apply) = %v\nlogs:\n%s", tt.entry, err, logs.String())
			}
			if diff := cmp.Diff(tt.want, results(rep)); diff != "" {
				t.Errorf("Reconcile(%s, apply) results mismatch (-want +got):\n%s\nlogs:\n%s", tt.entry, diff, logs.String())
			}
		})
	}
}
