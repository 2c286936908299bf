package change

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
)

// writeFile writes body at rel under root.
func writeFile(t testing.TB, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// gitIn runs git in root as a person with no configuration of their own.
func gitIn(t testing.TB, root string, args ...string) string {
	t.Helper()
	return testkit.Git(t, root, args...)
}

// fleetRepo writes a git repository of the seed layout with the given
// clients, each with a dev and a prod environment of n stacks: one Flux
// Kustomization per stack, a client overlay over a shared base, the
// versions shared by every environment, and stack 0 producing a contract
// that every other stack reads. Its base is committed on main.
func fleetRepo(t testing.TB, clients []string, n int) string {
	t.Helper()
	root := t.TempDir()
	versions := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: service-versions\n  namespace: flux-system\ndata:\n"
	for i := range n {
		versions += fmt.Sprintf("  version_s%03d_tf: \"0.1.0\"\n", i)
	}
	writeFile(t, root, "shared/versions/kustomization.yaml", "resources:\n  - _versions.yaml\n")
	writeFile(t, root, "shared/versions/_versions.yaml", versions)
	writeFile(t, root, "flux-apps/stacks/app/main.tf", "variable \"name\" {\n  type = string\n}\n")
	for i := range n {
		s := fmt.Sprintf("s%03d", i)
		io := "  writeOutputsToSecret:\n    name: " + s + "\n"
		if i > 0 {
			io = "  readInputsFromSecrets:\n    - name: s000\n      as: upstream\n"
		}
		writeFile(t, root, "flux-apps/base/"+s+"/kustomization.yaml", "resources:\n  - terraform.yaml\n")
		writeFile(t, root, "flux-apps/base/"+s+"/terraform.yaml", fmt.Sprintf(`apiVersion: infra.contrib.fluxcd.io/v1alpha2
kind: Terraform
metadata:
  name: %[1]s
  namespace: flux-system
spec:
  interval: 10m
  approvePlan: auto
  path: ./flux-apps/stacks/app
  sourceRef:
    kind: GitRepository
    name: flux-system
  vars:
    - name: name
      value: "%[1]s-${clientId}-${environment}"
%[2]s`, s, io))
	}
	for _, c := range clients {
		for i := range n {
			s := fmt.Sprintf("s%03d", i)
			writeFile(t, root, "flux-apps/clients/"+c+"/"+s+"/kustomization.yaml", "resources:\n  - ../../../base/"+s+"\n")
		}
		for _, e := range []string{"dev", "prod"} {
			class := "non-prod"
			if e == "prod" {
				class = "prod"
			}
			dir := "environments/" + c + "/" + e
			writeFile(t, root, dir+"/init.yaml", fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: init\n  namespace: flux-system\ndata:\n  clientId: %s\n  environment: %s\n  environmentClass: %s\n", c, e, class))
			k := "resources:\n  - ../../../../shared/versions\n"
			for i := range n {
				s := fmt.Sprintf("s%03d", i)
				k += "  - " + s + ".yaml\n"
				writeFile(t, root, dir+"/stacks/"+s+".yaml", fmt.Sprintf(`apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: %[1]s
  namespace: flux-system
spec:
  interval: 10m
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
  path: ./flux-apps/clients/%[2]s/%[1]s
  postBuild:
    substituteFrom:
      - kind: ConfigMap
        name: init
      - kind: ConfigMap
        name: service-versions
`, s, c))
			}
			writeFile(t, root, dir+"/stacks/kustomization.yaml", k)
		}
	}
	gitIn(t, root, "init", "--quiet", "--initial-branch", "main")
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "--quiet", "-m", "base")
	return root
}

// diffAt checks out base and diffs the work tree against it.
func diffAt(t testing.TB, root, base string, dirs ...string) *Report {
	t.Helper()
	ctx := context.Background()
	co, err := CheckoutBase(ctx, root, base)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := co.Close(); err != nil {
			t.Error(err)
		}
	}()
	d, err := Diff(ctx, root, co, dirs)
	if err != nil {
		t.Fatalf("Diff(%q) = %v", root, err)
	}
	return d
}

func readFile(t testing.TB, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
