package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	n := flag.Int("stacks", 100, "how many stacks the environment holds")
	out := flag.String("out", "", "the repository's directory (created)")
	sh := flag.String("shape", "plain", "how each stack is written: "+strings.Join(shapeNames(), ", "))
	flag.Parse()
	if *out == "" || *n < 4 {
		fmt.Fprintln(os.Stderr, "usage: benchrepo -stacks N (at least 4) -out DIR [-shape SHAPE]")
		os.Exit(2)
	}
	if _, ok := shapes[*sh]; !ok {
		fmt.Fprintf(os.Stderr, "benchrepo: no shape %q: the shapes are %s\n", *sh, strings.Join(shapeNames(), ", "))
		os.Exit(2)
	}
	if err := writeShape(*out, *n, *sh); err != nil {
		fmt.Fprintf(os.Stderr, "benchrepo: %v\n", err)
		os.Exit(1)
	}
}

// layers are the seed's layers, bottom first, with the percentage of the
// stacks in each (the rest are services).
var layers = []struct {
	name string
	pct  int
}{{"account", 1}, {"network", 5}, {"cluster", 10}, {"services", 0}}

// counts splits n stacks over the layers.
func counts(n int) []int {
	out := make([]int, len(layers))
	left := n
	for i, l := range layers[:len(layers)-1] {
		out[i] = max(n*l.pct/100, 1)
		left -= out[i]
	}
	out[len(out)-1] = left
	return out
}

func name(layer string, i int) string { return fmt.Sprintf("%s-%04d", layer, i) }

// write writes the repository of n stacks, of the plain shape, into dir
// and commits it.
func write(dir string, n int) error { return writeShape(dir, n, "plain") }

// writeShape writes the repository of n stacks of the named shape into
// dir and commits it.
func writeShape(dir string, n int, shapeName string) error {
	sh := shapes[shapeName]
	files := map[string]string{}
	env := "environments/bench/dev"
	files[env+"/init.yaml"] = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: init\n  namespace: flux-system\ndata:\n" +
		"  clientId: bench\n  environment: dev\n  environmentClass: non-prod\n  region: eu-west-1\n"
	var tf strings.Builder
	tf.WriteString("variable \"name\" {\n  type = string\n}\n")
	for r := 1; r <= 5; r++ {
		fmt.Fprintf(&tf, "\nresource \"terraform_data\" \"r%d\" {\n  input = \"${var.name}-%d\"\n}\n", r, r)
	}
	files["flux-apps/bench/stack/terraform/main.tf"] = tf.String()
	c := counts(n)
	for l, layer := range layers {
		for i := range c[l] {
			s := name(layer.name, i)
			deps := ""
			if l > 0 {
				below, nb := layers[l-1].name, c[l-1]
				deps = "  dependsOn:\n    - name: " + name(below, i%nb) + "\n"
				if nb > 1 && i%2 == 0 {
					deps += "    - name: " + name(below, (i+1)%nb) + "\n"
				}
			}
			files[env+"/"+layer.name+"/"+s+".yaml"] = fmt.Sprintf(`apiVersion: kustomize.toolkit.fluxcd.io/v1
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
%[2]s%[3]s`, s, deps, sh.kustomization)
			files["flux-apps/bench/"+s+"/kustomization.yaml"] = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - terraform.yaml\n" + sh.kustomize
			code := "./flux-apps/bench/stack/terraform"
			if sh.moduleDirs {
				code = "./flux-apps/bench/" + s + "/terraform"
				files["flux-apps/bench/"+s+"/terraform/main.tf"] = tf.String()
			}
			files["flux-apps/bench/"+s+"/terraform.yaml"] = fmt.Sprintf(`apiVersion: infra.contrib.fluxcd.io/v1alpha2
kind: Terraform
metadata:
  name: %[1]s
  namespace: flux-system
  annotations:
    strata.dev/layer: %[2]s
spec:
  interval: 10m
  approvePlan: auto
  path: %[3]s
  sourceRef:
    kind: GitRepository
    name: flux-system
    namespace: flux-system
  vars:
    - name: name
      value: %[4]s
`, s, layer.name, code, strings.ReplaceAll(sh.value, "NAME", s))
		}
	}
	for rel, body := range sh.files {
		files[rel] = body
	}
	for rel, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return err
		}
	}
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "-A"},
		// The commit's automatic gc (past 6,700 loose objects) runs
		// here, not detached: packing 30,000 objects in the background
		// took the CPU from the first command timed after it, and a
		// user's clone is packed.
		{"-c", "user.name=bench", "-c", "user.email=bench@localhost", "-c", "gc.autoDetach=false", "commit", "-qm", "bench"},
	} {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("git %s: %w", args[len(args)-1], err)
		}
	}
	return nil
}
