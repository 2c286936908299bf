package flux

import (
	"cmp"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
)

// TestExplainMissingInRepo: a ConfigMap that no build of the environment
// renders, but that a file of the checkout holds (another cluster's
// directory), is named where it is, with the fix to apply it; one no file
// holds is "not in the repository", and one a letter or two from a
// ConfigMap the environment has names that one.
func TestExplainMissingInRepo(t *testing.T) {
	for _, tt := range []struct {
		name, other, want string
		// file is where other is written; clusters/prod/settings.yaml
		// when empty.
		file string
	}{
		{
			name:  "in a file no Kustomization applies",
			other: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cluster-settings\n  namespace: flux-system\ndata:\n  region: eu\n",
			want:  "no build of this environment renders it in namespace flux-system, though clusters/prod/settings.yaml holds a ConfigMap of that name",
		},
		{
			name:  "in another namespace",
			other: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cluster-settings\n  namespace: elsewhere\ndata:\n  region: eu\n",
			want:  "it is not in the repository",
		},
		{
			name:  "a letter from one the environment has",
			other: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cluster-setting\n  namespace: flux-system\ndata:\n  region: eu\n",
			file:  "clusters/dev/settings.yaml",
			want:  "it is not in the repository, which has a ConfigMap cluster-setting;",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := writeDevRepo(t, map[string]string{
				"clusters/dev/apps.yaml": "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: apps\n  namespace: flux-system\nspec:\n  interval: 1h\n  path: ./apps\n  prune: true\n  sourceRef: {kind: GitRepository, name: flux-system}\n  postBuild:\n    substituteFrom:\n      - {kind: ConfigMap, name: cluster-settings}\n",
				"apps/terraform.yaml":    terraformObject("vpc"),
			})
			testkit.WriteFile(t, filepath.Join(root, filepath.FromSlash(cmp.Or(tt.file, "clusters/prod/settings.yaml"))), tt.other)
			l, err := read(context.Background(), filepath.Join(root, "clusters", "dev"))
			if err != nil {
				t.Fatalf("read(clusters/dev) = %v", err)
			}
			var got string
			for _, p := range append(l.sortedProblems(), l.env.Warnings...) {
				if p.Input != nil && p.Input.Name == "cluster-settings" {
					got = p.Message
				}
			}
			if !strings.Contains(got, tt.want) {
				t.Errorf("read(clusters/dev) problem of ConfigMap cluster-settings = %q, want it to say %q", got, tt.want)
			}
		})
	}
}
