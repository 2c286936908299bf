package flux

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// TestLoadReadsTheArtifact loads small repositories whose checkout holds
// files that are not in the artifact Flux builds from: none of them is
// read, as in Flux, and a file committed is, though git ignores it.
func TestLoadReadsTheArtifact(t *testing.T) {
	const sync = "apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata:\n  name: flux-system\n  namespace: flux-system\nspec:\n  interval: 1m\n  url: https://example.com/fleet.git\n  ref: {branch: main}\n"
	tests := []struct {
		name  string
		files map[string]string
		// git makes the repository a git work tree, committing what it
		// names (git add -f).
		git    bool
		commit []string
		want   []string
		// problem is a part of the problem the load reports.
		problem string
		// self are the load's --self-source names.
		self []string
	}{
		{
			name:  "a .sops.yaml beside the manifests does not fail the generator",
			files: map[string]string{"apps/app/.sops.yaml": "creation_rules:\n  - age: age1xyz\n"},
			want:  []string{"app"},
		},
		{
			name:  "a manifest under .github/ is not a stack",
			files: map[string]string{"apps/app/.github/extra.yaml": terraformObject("extra")},
			want:  []string{"app"},
		},
		{
			name:  "a manifest a .sourceignore names is not a stack",
			files: map[string]string{"apps/app/extra.yaml": terraformObject("extra"), "apps/.sourceignore": "extra.yaml\n"},
			want:  []string{"app"},
		},
		{
			name:  "a manifest the GitRepository's spec.ignore names is not a stack",
			files: map[string]string{"apps/app/extra.yaml": terraformObject("extra"), "clusters/dev/sync.yaml": sync + "  ignore: |\n    /apps/app/extra.yaml\n"},
			want:  []string{"app"},
		},
		{
			name:  "without them, both are stacks",
			files: map[string]string{"apps/app/extra.yaml": terraformObject("extra"), "clusters/dev/sync.yaml": sync},
			want:  []string{"app", "extra"},
		},
		{
			name:  "a manifest git ignores and that is not committed is not a stack",
			files: map[string]string{"apps/app/extra.yaml": terraformObject("extra"), ".gitignore": "extra.yaml\n"},
			git:   true,
			want:  []string{"app"},
		},
		{
			name:   "a manifest git ignores that is committed is a stack",
			files:  map[string]string{"apps/app/extra.yaml": terraformObject("extra"), ".gitignore": "extra.yaml\n"},
			git:    true,
			commit: []string{"apps/app/extra.yaml"},
			want:   []string{"app", "extra"},
		},
		{
			name:    "a kustomization file naming a file left out fails, as in Flux",
			files:   map[string]string{"apps/app/kustomization.yaml": "resources:\n  - terraform.yaml\n  - extra.yaml\n", "apps/app/extra.yaml": terraformObject("extra"), ".sourceignore": "extra.yaml\n"},
			problem: "not in the artifact Flux builds from",
		},
		{
			name: "a Component one source's artifact leaves out fails a build of it, though another source's build read it",
			files: map[string]string{
				"clusters/dev/sync.yaml":               sync,
				"clusters/dev/other.yaml":              strings.Replace(sync, "name: flux-system\n", "name: other\n", 1) + "  ignore: |\n    /components/\n",
				"clusters/dev/zz.yaml":                 strings.Replace(fuzzKustomization("zz", "./apps/zz"), "name: flux-system\n", "name: other\n", 1),
				"apps/app/kustomization.yaml":          "resources:\n  - terraform.yaml\ncomponents:\n  - ../../components/common\n",
				"apps/zz/kustomization.yaml":           "resources:\n  - terraform.yaml\ncomponents:\n  - ../../components/common\n",
				"apps/zz/terraform.yaml":               terraformObject("zz"),
				"components/common/kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\ncommonAnnotations:\n  team: platform\n",
			},
			self:    []string{"GitRepository/flux-system/other"},
			problem: "apps/zz",
		},
		{
			name:    "a spec.path left out fails",
			files:   map[string]string{"clusters/dev/other.yaml": fuzzKustomization("other", "./drafts/other"), "drafts/other/terraform.yaml": terraformObject("other"), ".sourceignore": "/drafts/\n"},
			problem: `spec.path "./drafts/other" is not in the artifact Flux builds from`,
		},
	}
	for _, tt := range tests {
		for _, plain := range []bool{true, false} {
			t.Run(tt.name, func(t *testing.T) {
				files := map[string]string{
					"clusters/dev/app.yaml":   fuzzKustomization("app", "./apps/app"),
					"apps/app/terraform.yaml": terraformObject("app"),
				}
				for name, body := range tt.files {
					files[name] = body
				}
				root := writeDevRepo(t, files)
				if tt.git {
					testkit.Git(t, root, "init", "--quiet")
					testkit.Git(t, root, append([]string{"add", "-f", "--"}, tt.commit...)...)
				}
				dir := filepath.Join(root, "clusters", "dev")
				plainBuilds = plain
				defer func() { plainBuilds = true }()
				l, err := read(WithOptions(context.Background(), Options{SelfSources: tt.self}), dir)
				if err != nil {
					t.Fatalf("read(%q) = %v", dir, err)
				}
				all := environment.AllProblems(l.env, l.sortedProblems())
				if tt.problem != "" {
					if !strings.Contains(all.Error(), tt.problem) {
						t.Errorf("read(%q) problems = %v, want %q", dir, all, tt.problem)
					}
					return
				}
				if len(all) > 0 {
					t.Fatalf("read(%q) problems = %v, want none", dir, all)
				}
				var got []string
				for _, s := range l.env.Stacks {
					got = append(got, s.Name)
				}
				slices.Sort(got)
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("read(%q) stacks (-want +got):\n%s", dir, diff)
				}
			})
		}
	}
}
