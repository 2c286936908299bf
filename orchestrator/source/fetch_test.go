package source

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/orchestrator/environment"
)

func TestFetchLocal(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "flux-apps", "x", "terraform")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(body string) {
		if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`resource "terraform_data" "a" {}`)
	stack := &environment.Stack{
		Name:    "x",
		Path:    "flux-apps/x/terraform",
		Version: "0.1.0",
		Source:  environment.Source{Kind: environment.SourceGitRepository, Name: environment.DefaultGitSource},
	}
	r := &Resolver{Root: root}
	fetch := func(s *environment.Stack) (Artifact, error) {
		res, err := r.Resolve(context.Background(), s)
		if err != nil {
			return Artifact{}, err
		}
		return r.Fetch(context.Background(), s, res)
	}
	a1, err := fetch(stack)
	if err != nil {
		t.Fatalf("Fetch(%q) = %v, want nil", stack.Name, err)
	}
	if a1.Dir != dir || a1.Version != "0.1.0" || !strings.HasPrefix(a1.Digest, "h1:") {
		t.Errorf("Fetch(%q) = %+v, want dir %s, version 0.1.0 and an h1 digest", stack.Name, a1, dir)
	}
	a2, _ := fetch(stack)
	if a2.Digest != a1.Digest {
		t.Errorf("Fetch(%q) digest = %s, want the same %s for the same content", stack.Name, a2.Digest, a1.Digest)
	}
	write(`resource "terraform_data" "b" {}`)
	// One Resolver is one reconcile: it keeps the digest it read first.
	if a3, _ := fetch(stack); a3.Digest != a1.Digest {
		t.Errorf("Fetch(%q) digest = %s on the same Resolver after the code changed, want the %s it read first", stack.Name, a3.Digest, a1.Digest)
	}
	r = &Resolver{Root: root}
	if a4, _ := fetch(stack); a4.Digest == a1.Digest {
		t.Errorf("Fetch(%q) digest unchanged on a new Resolver after the code changed", stack.Name)
	}
}

func TestFetchErrors(t *testing.T) {
	root := t.TempDir()
	tests := []struct {
		name  string
		stack environment.Stack
		want  string
	}{
		{"missing dir", environment.Stack{Name: "x", Path: "nope", Source: environment.Source{Kind: "GitRepository", Name: "flux-system"}}, "resolve stack x from nope"},
		{"other git", environment.Stack{Name: "y", Path: "p", Source: environment.Source{Kind: "GitRepository", Name: "other"}}, `resolve stack y: GitRepository "other": unsupported source`},
		{"oci without a client", environment.Stack{Name: "z", Path: ".", Source: environment.Source{Kind: "OCIRepository", Name: "z-iac", URL: "oci://127.0.0.1:1/iac/z"}}, "resolve stack z: no OCI registry client configured"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := (&Resolver{Root: root}).Resolve(context.Background(), &tt.stack)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Fetch(%q) = %v, want an error containing %q", tt.stack.Name, err, tt.want)
			}
		})
	}
	if _, err := (&Resolver{Root: root}).Resolve(context.Background(), &environment.Stack{Name: "y", Source: environment.Source{Kind: "GitRepository", Name: "other"}}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Fetch(other) = %v, want ErrUnsupported", err)
	}
}

func TestExactVersion(t *testing.T) {
	tests := map[string]string{
		"0.1.0": "0.1.0", "1.2.3-rc.1": "1.2.3-rc.1", "~ 0.1.0-0": "", "~> 9.0.0": "", ">=1.0": "", "": "", "2.5": "", "v1.0.0": "v1.0.0",
	}
	for in, want := range tests {
		if got := exactVersion(in); got != want {
			t.Errorf("exactVersion(%q) = %q, want %q", in, got, want)
		}
	}
}
