package flux

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// fluxTreeRepo writes a bootstrap cluster as the homelab template family
// shapes it, with n Flux Kustomizations: a cluster-apps Kustomization
// whose patches give every child decryption and a substituteFrom of the
// cluster's settings, one directory per namespace with a Component (a
// Secret per namespace) and its apps' ks.yaml files, each app a
// Kustomization of a HelmRelease, and one app in ten a Terraform object.
// It is the size of the largest public repositories of the kind, about a
// hundred Kustomizations.
func fluxTreeRepo(b testing.TB, n int) string {
	b.Helper()
	root, write := benchTree(b)
	write("cluster/flux/settings.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cluster-settings\n  namespace: flux-system\ndata:\n  CLUSTER: home\n  DOMAIN: home.example.invalid\n")
	write("cluster/flux/apps.yaml", `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: cluster-apps
  namespace: flux-system
spec:
  interval: 10m
  path: ./apps
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
  postBuild:
    substituteFrom:
      - kind: ConfigMap
        name: cluster-settings
  patches:
    - patch: |-
        apiVersion: kustomize.toolkit.fluxcd.io/v1
        kind: Kustomization
        metadata:
          name: _
        spec:
          decryption:
            provider: sops
          postBuild:
            substituteFrom:
              - kind: ConfigMap
                name: cluster-settings
      target:
        group: kustomize.toolkit.fluxcd.io
        kind: Kustomization
`)
	write("components/common/kustomization.yaml", "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n  - settings.yaml\n")
	write("components/common/settings.yaml", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: shared-settings\nstringData:\n  domain: home.example.invalid\n")
	write("tofu/app/main.tf", "variable \"name\" {\n  type = string\n}\n")
	const perNamespace = 10
	namespaces := (n + perNamespace - 1) / perNamespace
	for ns := range namespaces {
		nsName := fmt.Sprintf("ns-%02d", ns)
		var apps string
		for a := range perNamespace {
			i := ns*perNamespace + a
			if i >= n {
				break
			}
			app := fmt.Sprintf("app-%03d", i)
			apps += "  - ./" + app + "/ks.yaml\n"
			write(fmt.Sprintf("apps/%s/%s/ks.yaml", nsName, app), fmt.Sprintf(`apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: %[1]s
  namespace: flux-system
spec:
  interval: 10m
  path: ./apps/%[2]s/%[1]s/app
  prune: true
  targetNamespace: %[2]s
  sourceRef:
    kind: GitRepository
    name: flux-system
    namespace: flux-system
  postBuild:
    substituteFrom: []
`, app, nsName))
			res := "  - helmrelease.yaml\n"
			write(fmt.Sprintf("apps/%s/%s/app/helmrelease.yaml", nsName, app), fmt.Sprintf(`apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: %[1]s
spec:
  interval: 30m
  chartRef:
    kind: OCIRepository
    name: app-template
  values:
    ingress:
      host: %[1]s.${DOMAIN}
`, app))
			if i%10 == 0 {
				res += "  - terraform.yaml\n"
				write(fmt.Sprintf("apps/%s/%s/app/terraform.yaml", nsName, app), fmt.Sprintf(`apiVersion: infra.contrib.fluxcd.io/v1alpha2
kind: Terraform
metadata:
  name: %[1]s
spec:
  interval: 1h
  approvePlan: auto
  path: ./tofu/app
  sourceRef:
    kind: GitRepository
    name: flux-system
    namespace: flux-system
  vars:
    - name: name
      value: %[1]s-${CLUSTER}
`, app))
			}
			write(fmt.Sprintf("apps/%s/%s/app/kustomization.yaml", nsName, app), "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n"+res)
		}
		write("apps/"+nsName+"/kustomization.yaml", fmt.Sprintf("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: %s\ncomponents:\n  - ../../components/common\nresources:\n%s", nsName, apps))
	}
	return filepath.Join(root, "cluster", "flux")
}

// TestFluxTreeRepo: the tree loads as Flux renders it, every stack in it.
func TestFluxTreeRepo(t *testing.T) {
	dir := fluxTreeRepo(t, 100)
	env, err := Load(context.Background(), dir)
	if err != nil {
		t.Fatalf("Load(%q) = %v", dir, err)
	}
	if len(env.Stacks) != 10 || len(env.Blocked) != 0 || len(env.Warnings) != 0 {
		t.Errorf("Load(%q) = %d stacks, blocked %v, warnings %v; want 10 stacks, none held back", dir, len(env.Stacks), env.Blocked, env.Warnings)
	}
	if s := env.Stack("app-000"); s == nil || s.Vars["name"] != "app-000-home" {
		t.Errorf("Load(%q) stack app-000 = %+v, want its name substituted from cluster-settings", dir, s)
	}
}

// BenchmarkLoadFluxTree renders a bootstrap cluster of 100 Flux
// Kustomizations shaped as real repositories of the kind are: what
// `validate` of the largest of them costs.
func BenchmarkLoadFluxTree(b *testing.B) {
	dir := fluxTreeRepo(b, 100)
	for b.Loop() {
		if _, err := Load(context.Background(), dir); err != nil {
			b.Fatal(err)
		}
	}
}
