package flux

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchTree makes an empty repository (a .git directory) and returns its
// root and a function that writes a file of it.
func benchTree(b testing.TB) (string, func(rel, body string)) {
	b.Helper()
	root := b.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		b.Fatal(err)
	}
	return root, func(rel, body string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// benchRepo writes an environment of n stacks shaped as .ci/bench.sh
// generates it: one Kustomization per stack in its layer's group, each
// with a kustomization file and a Terraform object of its own, and one
// shared stack code directory.
func benchRepo(b testing.TB, n int) string {
	b.Helper()
	root, write := benchTree(b)
	write("environments/bench/dev/init.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: init\n  namespace: flux-system\ndata:\n  clientId: bench\n  environment: dev\n  environmentClass: non-prod\n")
	write("flux-apps/bench/stack/terraform/main.tf", "variable \"name\" {\n  type = string\n}\n")
	for i := range n {
		s := fmt.Sprintf("services-%04d", i)
		write("environments/bench/dev/services/"+s+".yaml", benchKustomization(s, ""))
		write("flux-apps/bench/"+s+"/kustomization.yaml", "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - terraform.yaml\n")
		write("flux-apps/bench/"+s+"/terraform.yaml", benchTerraform(s, "./flux-apps/bench/stack/terraform", s))
	}
	return filepath.Join(root, "environments", "bench", "dev")
}

// benchKustomization is the Flux Kustomization of a bench stack, with
// extra lines of its spec.
func benchKustomization(name, extra string) string {
	return fmt.Sprintf(`apiVersion: kustomize.toolkit.fluxcd.io/v1
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
%[2]s`, name, extra)
}

// benchTerraform is the Terraform object of a bench stack: its code in
// path, its variable name set to value.
func benchTerraform(name, path, value string) string {
	return fmt.Sprintf(`apiVersion: infra.contrib.fluxcd.io/v1alpha2
kind: Terraform
metadata:
  name: %[1]s
  namespace: flux-system
spec:
  interval: 10m
  approvePlan: auto
  path: %[2]s
  sourceRef:
    kind: GitRepository
    name: flux-system
  vars:
    - name: name
      value: %[3]s
`, name, path, value)
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

// largeShapes are the shapes of the loader's largest inputs, each written
// to about mb megabytes: one wide ConfigMap (the mapping kustomize's
// reader is quadratic in), a hundred ConfigMaps of 10 KB a megabyte in one
// file (kustomize checks each object against those before it: past
// MaxBuildObjects the file is refused), and one value on one long line.
var largeShapes = map[string]func(mb int) string{
	"wide": func(mb int) string { return wideConfigMap("big", mb*19_000) },
	"many": func(mb int) string {
		var s strings.Builder
		for i := range mb * 100 {
			s.WriteString(wideConfigMap(fmt.Sprintf("cm-%07d", i), 190))
			s.WriteString("---\n")
		}
		return s.String()
	},
	"long-line": func(mb int) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: long\n  namespace: flux-system\ndata:\n  value: " + strings.Repeat("x", mb<<20) + "\n"
	},
}

// BenchmarkLoadLarge loads an environment whose entry directory holds one
// file of 1, 2, 5 and 10 MB of each shape. Its ms/MB stays flat when the
// load is linear in its input: a quadratic step shows as a ratio of the
// ms/MB of 10 MB to that of 1 MB near 10.
func BenchmarkLoadLarge(b *testing.B) {
	for _, shape := range []string{"wide", "many", "long-line"} {
		for _, mb := range []int{1, 2, 5, 10} {
			b.Run(fmt.Sprintf("%s/%dMB", shape, mb), func(b *testing.B) {
				body := largeShapes[shape](mb)
				dir := benchRepo(b, 1)
				if err := os.WriteFile(filepath.Join(dir, "large.yaml"), []byte(body), 0o644); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(body)))
				for b.Loop() {
					if _, err := Load(context.Background(), dir); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/(float64(len(body))/(1<<20)), "ms/MB")
			})
		}
	}
}
