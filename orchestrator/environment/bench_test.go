package environment

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// benchRepo writes an environment of n stacks shaped as .ci/bench.sh
// generates it: one Kustomization per stack in its layer's group, each
// with a kustomization file and a Terraform object of its own, and one
// shared stack code directory.
func benchRepo(b testing.TB, n int) string {
	b.Helper()
	root := b.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		b.Fatal(err)
	}
	write("environments/bench/dev/init.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: init\n  namespace: flux-system\ndata:\n  clientId: bench\n  environment: dev\n  environmentClass: non-prod\n")
	write("flux-apps/bench/stack/terraform/main.tf", "variable \"name\" {\n  type = string\n}\n")
	for i := range n {
		s := fmt.Sprintf("services-%04d", i)
		write("environments/bench/dev/services/"+s+".yaml", fmt.Sprintf(`apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: %[1]s
  namespace: flux-system
spec:
  interval: 10m
  path: ./flux-apps/bench/%[1]s
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
`, s))
		write("flux-apps/bench/"+s+"/kustomization.yaml", "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - terraform.yaml\n")
		write("flux-apps/bench/"+s+"/terraform.yaml", fmt.Sprintf(`apiVersion: infra.contrib.fluxcd.io/v1alpha2
kind: Terraform
metadata:
  name: %[1]s
  namespace: flux-system
spec:
  interval: 10m
  approvePlan: auto
  path: ./flux-apps/bench/stack/terraform
  sourceRef:
    kind: GitRepository
    name: flux-system
  vars:
    - name: name
      value: %[1]s
`, s))
	}
	return filepath.Join(root, "environments", "bench", "dev")
}

// BenchmarkLoad renders an environment of 1,000 stacks every time: the
// baseline of BenchmarkLoadCached.
func BenchmarkLoad(b *testing.B) {
	dir := benchRepo(b, 1000)
	for b.Loop() {
		if _, err := Load(context.Background(), dir); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadCached loads the same environment from the render cache,
// which checks every input of the render again.
func BenchmarkLoadCached(b *testing.B) {
	dir, state := benchRepo(b, 1000), b.TempDir()
	if _, hit, err := loadCached(context.Background(), dir, state); err != nil || hit {
		b.Fatalf("loadCached(%q) = hit %v, %v; want a render", dir, hit, err)
	}
	for b.Loop() {
		if _, hit, err := loadCached(context.Background(), dir, state); err != nil || !hit {
			b.Fatalf("loadCached(%q) = hit %v, %v; want a hit", dir, hit, err)
		}
	}
}
