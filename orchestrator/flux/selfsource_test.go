package flux

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSyncsEntry checks that a GitRepository the bootstrap Kustomization
// syncs the entry directory from is this checkout, whatever its URL and
// name, so that the Kustomizations of that source are followed; and that
// another GitRepository of the environment is not.
func TestSyncsEntry(t *testing.T) {
	gitRepo := func(name, url string) string {
		return "apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata:\n  name: " + name + "\n  namespace: flux-system\nspec:\n  interval: 1h\n  url: " + url + "\n  ref: {branch: main}\n"
	}
	ks := func(name, path, source string) string {
		return strings.Replace(fuzzKustomization(name, path), "name: flux-system\n", "name: "+source+"\n", 1)
	}
	root := writeDevRepo(t, map[string]string{
		"clusters/dev/sync/source.yaml":   gitRepo("home-kubernetes", "ssh://git@github.com/someone/old-name.git"),
		"clusters/dev/sync/other.yaml":    gitRepo("charts", "https://github.com/someone/charts.git"),
		"clusters/dev/sync/sync.yaml":     ks("cluster", "./clusters/dev", "home-kubernetes"),
		"clusters/dev/apps.yaml":          ks("apps", "./apps/a", "home-kubernetes"),
		"clusters/dev/charts.yaml":        ks("charts", "./apps/b", "charts"),
		"clusters/dev/kustomization.yaml": kfileOf("init.yaml", "sync/source.yaml", "sync/other.yaml", "sync/sync.yaml", "apps.yaml", "charts.yaml"),
		"apps/a/terraform.yaml":           terraformObject("a"),
		"apps/b/terraform.yaml":           terraformObject("b"),
	})
	dir := filepath.Join(root, "clusters", "dev")
	env, err := Load(context.Background(), dir)
	if err != nil {
		t.Fatalf("Load(%q) = %v, want it valid", dir, err)
	}
	var got []string
	for _, s := range env.Stacks {
		got = append(got, s.Name)
	}
	if !slices.Equal(got, []string{"a"}) {
		t.Errorf("Load(%q) stacks = %v, want [a]: those of home-kubernetes, which syncs clusters/dev, and not those of charts", dir, got)
	}
	note := "GitRepository flux-system/home-kubernetes is taken as this checkout, though none of its remotes is its spec.url: Kustomization cluster (clusters/dev/sync/sync.yaml) syncs this environment's directory, clusters/dev/, from it"
	if !slices.Contains(env.Notes, note) {
		t.Errorf("Load(%q) notes = %q, want %q", dir, env.Notes, note)
	}
}
