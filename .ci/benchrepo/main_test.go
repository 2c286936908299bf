package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/flux"
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

// TestShapesLoad loads a small repository of every shape: each renders
// every stack, and what the shape adds reaches the stacks, so that the
// shapes the benchmark measures are the shapes they say they are.
func TestShapesLoad(t *testing.T) {
	const n = 8
	for _, name := range shapeNames() {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := writeShape(dir, n, name); err != nil {
				t.Fatalf("writeShape(%q) = %v", name, err)
			}
			envDir := filepath.Join(dir, "environments", "bench", "dev")
			env, err := flux.Load(context.Background(), envDir)
			if err != nil {
				t.Fatalf("Load(%s shape) = %v", name, err)
			}
			if len(env.Stacks) != n || len(env.Blocked) > 0 {
				t.Fatalf("Load(%s shape) = %d stacks, blocked %v; want %d", name, len(env.Stacks), env.Blocked, n)
			}
			s := env.Stacks[0]
			want := map[string]func() bool{
				"substitute":     func() bool { return strings.HasSuffix(s.Vars["name"].(string), "-dev-eu-west-1") },
				"substitutefrom": func() bool { return strings.HasSuffix(s.Vars["name"].(string), "-dev-eu-west-1") },
				"seed": func() bool {
					return strings.HasSuffix(s.Vars["name"].(string), "-dev-eu-west-1") && s.Path == "flux-apps/bench/"+strings.TrimSuffix(s.Vars["name"].(string), "-dev-eu-west-1")+"/terraform"
				},
				"patches":    func() bool { return s.Interval == time.Hour },
				"components": func() bool { return s.Interval == time.Hour },
				"nameprefix": func() bool { return strings.HasPrefix(s.Name, "bench-") },
				"moduledirs": func() bool { return s.Path == "flux-apps/bench/"+s.Name+"/terraform" },
			}
			if check, ok := want[name]; ok && !check() {
				t.Errorf("Load(%s shape) stack %s = path %s, interval %v, vars %v: the shape does not reach it", name, s.Name, s.Path, s.Interval, s.Vars)
			}
		})
	}
}
