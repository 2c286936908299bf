package checkout

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fluxcd/pkg/sourceignore"
	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/testkit"
)

// TestExcluded holds the rules to what source-controller
// leaves out of a GitRepository's artifact, and to what a clone lacks.
func TestExcluded(t *testing.T) {
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
	r := New(root, &ignore, nil)
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

// TestSourceMatchIsSourceignores holds sourceMatch, which asks the
// defaults once per path component, to sourceignore's own matcher, on
// every path of a few names whose directories the matcher keeps.
func TestSourceMatchIsSourceignores(t *testing.T) {
	names := []string{"a", ".github", ".git", "x.zip", "b.yaml", ".sops.yaml", "docs", "keep.draft.yaml", "c.draft.yaml", ".travis.yml"}
	for _, patterns := range []string{"", "/docs/\n*.draft.yaml\n!keep.draft.yaml\n", "!.github/\n!x.zip\na/b.yaml\n**/docs\n"} {
		ps := sourceignore.ReadPatterns(strings.NewReader(patterns), nil)
		full := sourceignore.NewDefaultMatcher(ps, nil)
		r := New(t.TempDir(), nil, nil)
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

// TestCacheFor: one set of rules per spec.ignore, made once.
func TestCacheFor(t *testing.T) {
	c := NewCache(t.TempDir(), nil)
	a, b := "/a/\n", "/b/\n"
	if c.For(nil) != c.For(nil) || c.For(&a) != c.For(&a) {
		t.Errorf("For() made the rules of one spec.ignore twice")
	}
	if c.For(nil) == c.For(&a) || c.For(&a) == c.For(&b) {
		t.Errorf("For() gave two spec.ignore values one set of rules")
	}
	empty := ""
	if c.For(nil) == c.For(&empty) {
		t.Errorf("For(nil) = For(\"\"), want an unset spec.ignore apart from an empty one")
	}
	if got := c.For(&a).Excluded("a/x.yaml", false); got == "" {
		t.Errorf("For(%q).Excluded(a/x.yaml) = \"\", want it left out", a)
	}
}

// TestCacheIgnoreFiles: the ignore files a checkout's rules read,
// git's only in a git work tree.
func TestCacheIgnoreFiles(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{name: "a directory", want: []string{".sourceignore"}},
		{name: "a git work tree", files: map[string]string{".git/HEAD": "ref: refs/heads/main\n"}, want: []string{".sourceignore", ".gitignore"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for rel, body := range tt.files {
				testkit.WriteFile(t, filepath.Join(root, filepath.FromSlash(rel)), body)
			}
			if diff := cmp.Diff(tt.want, NewCache(root, nil).IgnoreFiles()); diff != "" {
				t.Errorf("IgnoreFiles() of %s mismatch (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}

// TestCacheReadWith: the rules read ignore files through the reader a
// Cache is given, those made before it and after; nil reads the disk
// again.
func TestCacheReadWith(t *testing.T) {
	root := t.TempDir()
	testkit.WriteFile(t, filepath.Join(root, ".sourceignore"), "on-disk.yaml\n")
	c := NewCache(root, nil)
	before := c.For(nil)
	var read []string
	c.ReadWith(func(p string) ([]byte, error) {
		read = append(read, p)
		if filepath.Base(p) == ".sourceignore" {
			return []byte("given.yaml\n"), nil
		}
		return nil, os.ErrNotExist
	})
	a := "/x/\n"
	for _, r := range []*Rules{before, c.For(&a)} {
		if got := r.Excluded("given.yaml", false); got == "" {
			t.Errorf("Excluded(given.yaml) with the reader's .sourceignore = \"\", want it left out")
		}
		if got := r.Excluded("on-disk.yaml", false); got != "" {
			t.Errorf("Excluded(on-disk.yaml) with the reader's .sourceignore = %q, want it in", got)
		}
	}
	if len(read) == 0 || read[0] != filepath.Join(root, ".sourceignore") {
		t.Errorf("ReadWith's reader read %q, want %s first", read, filepath.Join(root, ".sourceignore"))
	}
	c.ReadWith(nil)
	b := "/y/\n"
	if got := c.For(&b).Excluded("on-disk.yaml", false); got == "" {
		t.Errorf("Excluded(on-disk.yaml) after ReadWith(nil) = \"\", want it left out by the file on disk")
	}
}
