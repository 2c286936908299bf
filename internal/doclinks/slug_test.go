package doclinks

import "testing"

func TestSlug(t *testing.T) {
	tests := []struct {
		heading, want string
	}{
		{"Two commands", "two-commands"},
		{"Cluster mode: `strata controller`", "cluster-mode-strata-controller"},
		{"Replicas: two `strata reconcile` processes, one leader", "replicas-two-strata-reconcile-processes-one-leader"},
		{"Where the peak RSS at 1,000 stacks goes", "where-the-peak-rss-at-1000-stacks-goes"},
		{"Developing strata: make targets, tests, source layout", "developing-strata-make-targets-tests-source-layout"},
		{"SOPS-encrypted Secrets", "sops-encrypted-secrets"},
		{"The `_versions.yaml` file", "the-_versionsyaml-file"},
		{"A  double space", "a--double-space"},
		{"Links [in](x.md) a heading", "links-in-a-heading"},
		{"Émile's café", "émiles-café"},
		{"  trimmed  ", "trimmed"},
		{"<code>html</code> tags", "html-tags"},
	}
	for _, tt := range tests {
		t.Run(tt.heading, func(t *testing.T) {
			if got := Slug(tt.heading); got != tt.want {
				t.Errorf("Slug(%q) = %q, want %q", tt.heading, got, tt.want)
			}
		})
	}
}
