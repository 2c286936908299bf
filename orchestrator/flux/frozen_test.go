package flux

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestFrozen checks which stacks Flux applies no change to, and why: as
// kustomize-controller's apply options and its dependency check decide.
func TestFrozen(t *testing.T) {
	ks := func(name, path, extra string) string {
		return fuzzKustomization(name, path) + extra
	}
	tf := func(name, metadata string) string {
		return "apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata:\n  name: " + name + "\n  namespace: flux-system\n" + metadata +
			"spec:\n  interval: 10m\n  path: ./stacks\n  sourceRef: {kind: GitRepository, name: flux-system}\n"
	}
	tests := []struct {
		name  string
		files map[string]string
		// want is the start of each stack's Frozen, "" when it is not.
		want map[string]string
		once map[string]bool
	}{
		{
			name: "a suspended Kustomization and one that depends on it",
			files: map[string]string{
				"clusters/dev/a.yaml": ks("a", "./apps/a", "  suspend: true\n"),
				"clusters/dev/b.yaml": ks("b", "./apps/b", "  dependsOn: [{name: a}]\n"),
				"apps/a/tf.yaml":      tf("ta", ""),
				"apps/b/tf.yaml":      tf("tb", ""),
			},
			want: map[string]string{
				"ta": "Kustomization a (clusters/dev/a.yaml) is suspended (spec.suspend: true), so Flux applies none of its changes",
				"tb": "Kustomization b (clusters/dev/b.yaml) depends on Kustomization a, which is suspended (spec.suspend: true in clusters/dev/a.yaml), so Flux applies none of their changes: it waits until a has applied this revision",
			},
		},
		{
			name: "a readyExpr replaces the revision check, and another source has its own revision",
			files: map[string]string{
				"clusters/dev/a.yaml":   ks("a", "./apps/a", "  suspend: true\n"),
				"clusters/dev/b.yaml":   ks("b", "./apps/b", "  dependsOn: [{name: a, readyExpr: 'true'}]\n"),
				"clusters/dev/c.yaml":   strings.Replace(ks("c", "./apps/c", "  dependsOn: [{name: a}]\n"), "name: flux-system\n", "name: other\n", 1),
				"clusters/dev/src.yaml": "apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata: {name: other, namespace: flux-system}\nspec: {url: 'https://example.com/other.git', ref: {branch: main}, interval: 1h}\n",
				"apps/a/tf.yaml":        tf("ta", ""),
				"apps/b/tf.yaml":        tf("tb", ""),
			},
			want: map[string]string{"ta": "Kustomization a (clusters/dev/a.yaml) is suspended", "tb": ""},
		},
		{
			name: "a readyExpr that is false holds the stacks, one that reads a status is left to the cluster",
			files: map[string]string{
				"clusters/dev/a.yaml": strings.Replace(ks("a", "./apps/a", ""), "  namespace: flux-system\n", "  namespace: flux-system\n  annotations: {app/version: v1.2.3}\n", 1),
				"clusters/dev/b.yaml": strings.Replace(ks("b", "./apps/b", "  dependsOn: [{name: a, readyExpr: \"self.metadata.annotations['app/version'] == dep.metadata.annotations['app/version']\"}]\n"), "  namespace: flux-system\n", "  namespace: flux-system\n  annotations: {app/version: v1.2.4}\n", 1),
				"clusters/dev/c.yaml": ks("c", "./apps/c", "  dependsOn: [{name: a, readyExpr: \"dep.status.conditions.all(c, c.status == 'True')\"}]\n"),
				"clusters/dev/d.yaml": strings.Replace(ks("d", "./apps/d", "  dependsOn: [{name: a, readyExpr: \"self.metadata.annotations['app/version'] == dep.metadata.annotations['app/version']\"}]\n"), "  namespace: flux-system\n", "  namespace: flux-system\n  annotations: {app/version: v1.2.3}\n", 1),
				"apps/a/tf.yaml":      tf("ta", ""),
				"apps/b/tf.yaml":      tf("tb", ""),
				"apps/c/tf.yaml":      tf("tc", ""),
				"apps/d/tf.yaml":      tf("td", ""),
			},
			want: map[string]string{
				"ta": "",
				"tb": "Kustomization b (clusters/dev/b.yaml) depends on Kustomization a, which is not ready according to readyExpr (self.metadata.annotations['app/version'] == dep.metadata.annotations['app/version'] is false), so Flux applies none of its changes: it waits (DependencyNotReady)",
				"tc": "",
				"td": "",
			},
		},
		{
			name: "the children of a suspended Kustomization reconcile on their own",
			files: map[string]string{
				"clusters/dev/parent.yaml": ks("parent", "./apps/parent", "  suspend: true\n"),
				"apps/parent/child.yaml":   ks("child", "./apps/child", ""),
				"apps/child/tf.yaml":       tf("tc", ""),
			},
			want: map[string]string{"tc": ""},
		},
		{
			name: "an object marked by annotation or label, the value in any case",
			files: map[string]string{
				"clusters/dev/a.yaml": ks("a", "./apps/a", ""),
				"apps/a/tf.yaml": tf("disabled", "  annotations: {kustomize.toolkit.fluxcd.io/reconcile: disabled}\n") + "---\n" +
					tf("ignored", "  labels: {kustomize.toolkit.fluxcd.io/ssa: ignore}\n") + "---\n" +
					tf("once", "  annotations: {kustomize.toolkit.fluxcd.io/ssa: IfNotPresent}\n") + "---\n" +
					tf("merged", "  annotations: {kustomize.toolkit.fluxcd.io/ssa: Merge}\n"),
			},
			want: map[string]string{
				"disabled": "Terraform/disabled in apps/a/tf.yaml is marked kustomize.toolkit.fluxcd.io/reconcile: disabled, so Flux applies no change to it",
				"ignored":  "Terraform/ignored in apps/a/tf.yaml is marked kustomize.toolkit.fluxcd.io/ssa: ignore, so Flux applies no change to it",
				"once":     "Terraform/once in apps/a/tf.yaml is marked kustomize.toolkit.fluxcd.io/ssa: IfNotPresent, so Flux created it once and applies no change to it",
				"merged":   "",
			},
			once: map[string]bool{"once": true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(writeDevRepo(t, tt.files), "clusters", "dev")
			env, err := Load(context.Background(), dir)
			if err != nil {
				t.Fatalf("Load(%q) = %v", dir, err)
			}
			got, once := map[string]string{}, map[string]bool{}
			for _, s := range env.Stacks {
				got[s.Name] = s.Frozen
				if w := tt.want[s.Name]; w != "" && strings.HasPrefix(s.Frozen, w) {
					got[s.Name] = w
				}
				if s.FrozenOnceRun {
					once[s.Name] = true
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Load(%q) stacks' Frozen mismatch (-want +got):\n%s", dir, diff)
			}
			if diff := cmp.Diff(tt.once, once, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Load(%q) stacks' FrozenOnceRun mismatch (-want +got):\n%s", dir, diff)
			}
			for name, why := range tt.want {
				if why == "" {
					continue
				}
				if !strings.Contains(env.Warnings.Error(), "Terraform/"+name+": "+why) {
					t.Errorf("Load(%q) warnings = %v, want one of Terraform/%s saying %q", dir, env.Warnings, name, why)
				}
			}
		})
	}
}
