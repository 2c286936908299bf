package flux

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
)

// devInit is clusters/dev/init.yaml of the small repositories tests
// write: the environment acme/dev.
const devInit = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: init\n  namespace: flux-system\ndata:\n  clientId: acme\n  environment: dev\n  environmentClass: non-prod\n  region: eu-west-1\n"

// writeDevRepo writes a small repository of files (by slash-separated path)
// with devInit as clusters/dev/init.yaml and a stack's code in stacks/,
// and returns its root.
func writeDevRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	all := map[string]string{"clusters/dev/init.yaml": devInit, "stacks/main.tf": "# code\n"}
	for name, body := range files {
		all[name] = body
	}
	for name, body := range all {
		testkit.WriteFile(t, filepath.Join(root, filepath.FromSlash(name)), body)
	}
	return root
}

// terraformObject is a Terraform object of the stack name, its code in
// stacks/.
func terraformObject(name string) string {
	b, _ := json.Marshal(map[string]any{
		"apiVersion": "infra.contrib.fluxcd.io/v1alpha2",
		"kind":       "Terraform",
		"metadata":   map[string]any{"name": name, "namespace": "flux-system"},
		"spec": map[string]any{
			"interval":  "10m",
			"path":      "./stacks",
			"sourceRef": map[string]any{"kind": "GitRepository", "name": "flux-system", "namespace": "flux-system"},
		},
	})
	return string(b) + "\n"
}
