package reconcile_test

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/sopstest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/decryption"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/internal/testrepo"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/source/oci"
	"github.com/strata-iac/strata/orchestrator/source/oci/ocitest"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
	"github.com/strata-iac/strata/orchestrator/validate"
)

// bootstrapVPC is the vpc_id the bootstrap repository's network stack
// outputs for its cidr.
var bootstrapVPC = func() string {
	sum := sha1.Sum([]byte("10.20.0.0/16"))
	return "vpc-" + hex.EncodeToString(sum[:])[:8]
}()

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
		// setup prepares the copied repository: pushes its artefacts.
		setup func(t *testing.T, root string)
		edges map[string][]string
		want  map[string]string
		// vars are the var files of some stacks after the apply.
		vars map[string]map[string]any
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
			// edge's code is an OCI artefact, in a real registry.
			setup: func(t *testing.T, root string) {
				reg := ocitest.Start(t)
				client := oci.New(oci.Options{CacheDir: t.TempDir(), Insecure: []string{reg.Host}})
				if _, err := client.Push(context.Background(), filepath.Join(root, "stacks", "edge"), reg.URL("iac/edge")+":0.1.0",
					oci.PushMeta{Source: "https://example.com/edge", Revision: "0.1.0"}); err != nil {
					t.Fatalf("Push(edge) = %v", err)
				}
				testkit.EditFile(t, root, "clusters/dev/cluster-vars.yaml", "127.0.0.1:5000", reg.Host)
			},
			edges: map[string][]string{"app": {"network"}, "dns": {"network"}, "edge": {"network"}, "network": nil},
			want:  map[string]string{"network": "applied/install", "app": "applied/install", "dns": "applied/install", "edge": "applied/install"},
			// network's vpc_id is vpc- and 8 hex digits of the SHA-1 of
			// its cidr; edge reads it through varsFrom, dns through a
			// values template.
			vars: map[string]map[string]any{
				"edge": {"environment": "dev", "network_id": bootstrapVPC, "cidr": "10.20.0.0/16"},
				"dns":  {"values": map[string]any{"zone": "dev.example", "vpc": bootstrapVPC, "cidr": "10.20.0.0/16"}},
			},
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
			root := testrepo.Fixture(t, filepath.Join("fidelity", tt.repo))
			if tt.setup != nil {
				tt.setup(t, root)
			}
			dir := filepath.Join(root, filepath.FromSlash(tt.entry))
			ctx := context.Background()
			if tt.encrypted != "" {
				sopstest.Helper(t)
				key := sopstest.NewAgeKey(t)
				sopstest.EncryptFile(t, filepath.Join(root, filepath.FromSlash(tt.encrypted)), sopstest.Recipients{Age: []string{key.Recipient}}, sopstest.KubernetesRegex)
				ctx = decryption.WithKeys(ctx, decryption.Keys{AgeKeyFile: key.WriteKeyFile(t, filepath.Join(t.TempDir(), "age.agekey"))})
			}
			_, g, err := validate.Environment(ctx, dir)
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
			state := t.TempDir()
			rep, err := reconcile.Reconcile(ctx, dir, history.OperationApply, reconcile.Options{
				Tofu: tofu, StateDir: state, MaxRunners: 2, DriftInterval: time.Hour, Logger: runlog.New(&logs, nil),
			})
			if err != nil {
				t.Fatalf("Reconcile(%s, apply) = %v\nlogs:\n%s", tt.entry, err, logs.String())
			}
			if diff := cmp.Diff(tt.want, results(rep)); diff != "" {
				t.Errorf("Reconcile(%s, apply) results mismatch (-want +got):\n%s\nlogs:\n%s", tt.entry, diff, logs.String())
			}
			for stack, want := range tt.vars {
				files, _ := filepath.Glob(filepath.Join(state, "work", "*", "*", stack, "strata.tfvars.json"))
				if len(files) != 1 {
					t.Fatalf("var files of %s = %v, want one", stack, files)
				}
				b, err := os.ReadFile(files[0])
				if err != nil {
					t.Fatal(err)
				}
				var got map[string]any
				if err := json.Unmarshal(b, &got); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("var file of %s mismatch (-want +got):\n%s", stack, diff)
				}
			}
		})
	}
}
