package flux

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fluxcd/pkg/sourceignore"
	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// TestArtifactRulesExcluded holds the rules to what source-controller
// leaves out of a GitRepository's artifact, and to what a clone lacks.
func TestArtifactRulesExcluded(t *testing.T) {
	root := t.TempDir()
	for name, body := range map[string]string{
		".sourceignore":          "/docs/\n*.draft.yaml\n",
		"apps/.sourceignore":     "local.yaml\n!keep.draft.yaml\n",
		"apps/a/.gitignore":      "secret.yaml\n*.tfvars\nbuild/\nout/\n",
		"apps/a/tracked.tfvars":  "x = 1\n",
		"apps/a/build/kept.yaml": "k: 1\n",
		"apps/a/out/gone.yaml":   "g: 1\n",
		"apps/a/secret.yaml":     "s: 1\n",
		"apps/a/app.yaml":        "a: 1\n",
		"apps/a/local.yaml":      "l: 1\n",
		"apps/a/keep.draft.yaml": "k: 1\n",
		"apps/b.draft.yaml":      "b: 1\n",
		"docs/x.yaml":            "d: 1\n",
		"other/local.yaml":       "o: 1\n",
	} {
		testkit.WriteFile(t, filepath.Join(root, filepath.FromSlash(name)), body)
	}
	testkit.Git(t, root, "init", "--quiet")
	testkit.Git(t, root, "add", "-f", "apps/a/tracked.tfvars", "apps/a/build/kept.yaml")
	ignore := "/other/local.yaml\n"
	r := newArtifactRules(root, &ignore, nil)
	for _, tc := range []struct {
		path  string
		isDir bool
		want  string // a part of the reason, "" when kept
	}{
		{"apps/a/app.yaml", false, ""},
		{"apps/a/.sops.yaml", false, "source-controller"},
		{"apps/a/.flux.yaml", false, "source-controller"},
		{"apps/a/logo.png", false, "source-controller"},
		{".github/workflows/ci.yaml", false, ".github/ is left out"},
		{"apps/.github", true, "source-controller"},
		{".gitignore", false, "source-controller"},
		{"docs/x.yaml", false, "docs/ is left out"},
		{"docs", true, "source-controller"},
		{"apps/b.draft.yaml", false, "source-controller"},
		{"apps/a/keep.draft.yaml", false, ""},
		{"apps/a/local.yaml", false, "source-controller"},
		{"other/local.yaml", false, "source-controller"},
		{"apps/a/secret.yaml", false, "git ignores it"},
		{"apps/a/tracked.tfvars", false, ""},
		{"apps/a/untracked.tfvars", false, "git ignores it"},
		{"apps/a", true, ""},
		{"apps/a/build/kept.yaml", false, ""},
		{"apps/a/out", true, "git ignores it"},
		{"apps/a/out/gone.yaml", false, "out/ is left out: git ignores it"},
	} {
		got := r.Excluded(tc.path, tc.isDir)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("Excluded(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

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
				l, err := read(context.Background(), dir)
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

// TestSourceMatchIsSourceignores holds sourceMatch, which asks the
// defaults once per path component, to sourceignore's own matcher, on
// every path of a few names whose directories the matcher keeps.
func TestSourceMatchIsSourceignores(t *testing.T) {
	names := []string{"a", ".github", ".git", "x.zip", "b.yaml", ".sops.yaml", "docs", "keep.draft.yaml", "c.draft.yaml", ".travis.yml"}
	for _, patterns := range []string{"", "/docs/\n*.draft.yaml\n!keep.draft.yaml\n", "!.github/\n!x.zip\na/b.yaml\n**/docs\n"} {
		ps := sourceignore.ReadPatterns(strings.NewReader(patterns), nil)
		full := sourceignore.NewDefaultMatcher(ps, nil)
		r := newArtifactRules(t.TempDir(), nil, nil)
		d := &dirRules{source: ps}
		var paths [][]string
		for _, a := range names {
			paths = append(paths, []string{a})
			for _, b := range names {
				paths = append(paths, []string{a, b})
				for _, c := range names {
					paths = append(paths, []string{a, b, c})
				}
			}
		}
		for _, p := range paths {
			kept := true
			for i := 1; i < len(p); i++ {
				kept = kept && !full.Match(p[:i], true)
			}
			if !kept {
				continue
			}
			for _, isDir := range []bool{false, true} {
				if got, want := r.sourceMatch(d, p, isDir), full.Match(p, isDir); got != want {
					t.Errorf("sourceMatch(%q, dir %v) with %q = %v, want %v", strings.Join(p, "/"), isDir, patterns, got, want)
				}
			}
		}
	}
}
