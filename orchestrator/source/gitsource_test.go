package source

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/source/git"
	"github.com/strata-iac/strata/orchestrator/source/git/gittest"
)

func TestFetchGit(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a git server")
	}
	srv := gittest.Start(t)
	commits := srv.Repo(t, "acme/modules.git",
		gittest.Commit{Tag: "v1.0.0", Files: map[string]string{"vpc/main.tf": "# 1.0.0\n"}},
		gittest.Commit{Tag: "v1.1.0", Files: map[string]string{"vpc/main.tf": "# 1.1.0\n"}},
	)
	stack := &environment.Stack{
		Name: "vpc", File: "flux-apps/vpc/terraform.yaml", Path: "vpc",
		Source: environment.Source{Kind: environment.SourceGitRepository, Name: "modules", File: "flux-apps/vpc/sources.yaml", Git: &environment.GitSource{
			URL: srv.HTTP + "/acme/modules.git", Semver: "~1", Credentials: environment.Credentials(gittest.Credentials()),
		}},
	}
	r := &Resolver{Root: t.TempDir(), Git: &git.Fetcher{CacheDir: t.TempDir()}}
	res, err := r.Resolve(context.Background(), stack)
	if err != nil {
		t.Fatalf("Resolve(%q) = %v, want nil", stack.Name, err)
	}
	a, err := r.Fetch(context.Background(), stack, res)
	if err != nil {
		t.Fatalf("Fetch(%q) = %v, want nil", stack.Name, err)
	}
	if a.Version != "v1.1.0" || res.Constraint != "~1" || !strings.HasPrefix(a.Digest, "h1:") || a.Origin != srv.HTTP+"/acme/modules.git@v1.1.0@sha1:"+commits[1] {
		t.Errorf("Fetch(%q) = %+v (constraint %q), want v1.1.0 of ~1 with an h1 digest, from commit %s", stack.Name, a, res.Constraint, commits[1])
	}
	if a.Dir != filepath.Join(a.Root, "vpc") {
		t.Errorf("Fetch(%q) dir = %s, want vpc in the fetched tree %s", stack.Name, a.Dir, a.Root)
	}
	if b, err := os.ReadFile(filepath.Join(a.Dir, "main.tf")); err != nil || string(b) != "# 1.1.0\n" {
		t.Errorf("Fetch(%q) main.tf = %q, %v, want version 1.1.0", stack.Name, b, err)
	}

	stack.Path = "nope"
	if _, err := r.Resolve(context.Background(), stack); err == nil || !strings.Contains(err.Error(), `has no directory "nope" (spec.path of flux-apps/vpc/terraform.yaml)`) {
		t.Errorf("Resolve(%q) with a spec.path not in the tree = %v, want an error naming the path", stack.Name, err)
	}
	stack.Source.Git.Credentials = nil
	_, err = r.Resolve(context.Background(), stack)
	if err == nil || !strings.Contains(err.Error(), "resolve stack vpc: GitRepository modules (flux-apps/vpc/sources.yaml)") {
		t.Errorf("Resolve(%q) without credentials = %v, want an error naming the stack and the GitRepository", stack.Name, err)
	}
}

func TestRedactURL(t *testing.T) {
	tests := map[string]string{
		"https://user:pw@git.example/acme/x": "https://git.example/acme/x",
		"ssh://git@git.example/acme/x":       "ssh://git@git.example/acme/x",
		"https://git.example/acme/x":         "https://git.example/acme/x",
	}
	for in, want := range tests {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
