package source

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/environment"
)

// TestFetchLocalIsTheArtifact: a stack whose code is this repository's
// checkout is the files source-controller would pack of its directory:
// its digest is that of the directory without what git ignores and has
// not committed, the .sourceignore files, the GitRepository's spec.ignore
// and sourceignore's defaults leave out, and the artifact says which
// paths to skip when it is laid out.
func TestFetchLocalIsTheArtifact(t *testing.T) {
	root := t.TempDir()
	code := map[string]string{
		"stacks/app/main.tf":          "resource \"terraform_data\" \"a\" {}\n",
		"stacks/app/modules/m/m.tf":   "variable \"x\" {}\n",
		"stacks/app/committed.tfvars": "x = 1\n",
	}
	left := map[string]string{
		"stacks/app/local.auto.tfvars":      "x = 2\n",
		"stacks/app/.terraform/providers/p": "binary\n",
		"stacks/app/.sops.yaml":             "creation_rules: []\n",
		"stacks/app/notes.draft.md":         "draft\n",
		"stacks/app/scratch/plan.out":       "plan\n",
	}
	for name, body := range code {
		testkit.WriteFile(t, filepath.Join(root, filepath.FromSlash(name)), body)
	}
	for name, body := range left {
		testkit.WriteFile(t, filepath.Join(root, filepath.FromSlash(name)), body)
	}
	testkit.WriteFile(t, filepath.Join(root, ".gitignore"), "*.tfvars\n.terraform/\n")
	testkit.WriteFile(t, filepath.Join(root, "stacks", ".sourceignore"), "*.draft.md\n")
	testkit.Git(t, root, "init", "--quiet")
	testkit.Git(t, root, "add", "-f", "stacks/app/committed.tfvars")
	ignore := "/stacks/app/scratch/\n"

	clean := t.TempDir()
	for name, body := range code {
		testkit.WriteFile(t, filepath.Join(clean, filepath.FromSlash(name)), body)
	}
	want, err := hashDir(filepath.Join(clean, "stacks", "app"), nil)
	if err != nil {
		t.Fatal(err)
	}
	stack := &environment.Stack{
		Name:   "app",
		Path:   "stacks/app",
		Source: environment.Source{Kind: environment.SourceGitRepository, Name: environment.DefaultGitSource, Ignore: &ignore},
	}
	r := &Resolver{Root: root}
	res, err := r.Resolve(context.Background(), stack)
	if err != nil {
		t.Fatalf("Resolve(%q) = %v", stack.Name, err)
	}
	a, err := r.Fetch(context.Background(), stack, res)
	if err != nil {
		t.Fatalf("Fetch(%q) = %v", stack.Name, err)
	}
	if a.Digest != want {
		t.Errorf("Fetch(%q) digest = %s, want %s, that of its directory without the files Flux leaves out", stack.Name, a.Digest, want)
	}
	if a.Skip == nil {
		t.Fatalf("Fetch(%q) Skip = nil, want the checkout's rules", stack.Name)
	}
	for name := range left {
		if !a.Skip(filepath.Join(root, filepath.FromSlash(name)), false) {
			t.Errorf("Fetch(%q) Skip(%q) = false, want true", stack.Name, name)
		}
	}
	for name := range code {
		if a.Skip(filepath.Join(root, filepath.FromSlash(name)), false) {
			t.Errorf("Fetch(%q) Skip(%q) = true, want false", stack.Name, name)
		}
	}
}
