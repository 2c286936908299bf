package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCounts(t *testing.T) {
	tests := []struct {
		n    int
		want []int
	}{
		{4, []int{1, 1, 1, 1}},
		{100, []int{1, 5, 10, 84}},
		{10000, []int{100, 500, 1000, 8400}},
	}
	for _, tt := range tests {
		if got := counts(tt.n); !cmp.Equal(got, tt.want) {
			t.Errorf("counts(%d) = %v, want %v", tt.n, got, tt.want)
		}
	}
}

// TestWrite checks the repository's shape: a Kustomization, a
// kustomization file and a Terraform object per stack, each stack above
// the first layer depending on the layer below, committed.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	if err := write(dir, 100); err != nil {
		t.Fatalf("write(%q, 100) = %v", dir, err)
	}
	env := filepath.Join(dir, "environments", "bench", "dev")
	ks, err := filepath.Glob(filepath.Join(env, "*", "*.yaml"))
	if err != nil || len(ks) != 100 {
		t.Fatalf("Kustomizations = %d (%v), want 100", len(ks), err)
	}
	tfs, _ := filepath.Glob(filepath.Join(dir, "flux-apps", "bench", "*", "terraform.yaml"))
	if len(tfs) != 100 {
		t.Errorf("Terraform objects = %d, want 100", len(tfs))
	}
	b, err := os.ReadFile(filepath.Join(env, "network", "network-0000.yaml"))
	if err != nil || !strings.Contains(string(b), "dependsOn:\n    - name: account-0000\n") {
		t.Errorf("network-0000.yaml = %q, %v, want a dependsOn on account-0000", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "HEAD")); err != nil {
		t.Errorf("the repository is not a git repository: %v", err)
	}
}
