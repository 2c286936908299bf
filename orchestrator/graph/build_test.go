package graph

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/diag"
)

func TestBuildProblems(t *testing.T) {
	const (
		cycleFix = "remove one of these dependencies"
		layerFix = "a stack may only depend on stacks in its own or a lower layer: move one of them or remove the dependency"
	)
	svc := func(name string, deps ...string) Node {
		n := Node{Name: name, File: name + ".yaml", Layer: 3, LayerName: "services"}
		for _, d := range deps {
			n.Deps = append(n.Deps, Edge{To: d, Why: "dependsOn"})
		}
		return n
	}
	tests := []struct {
		name  string
		nodes []Node
		want  diag.Problems
	}{
		{
			name:  "valid",
			nodes: example(),
		},
		{
			name:  "empty",
			nodes: nil,
		},
		{
			name:  "unknown dependency",
			nodes: []Node{svc("api", "ghost")},
			want: diag.Problems{{
				File: "api.yaml", Object: "Terraform/api",
				Message: `depends on unknown stack "ghost" (dependsOn)`,
				Fix:     `add a stack named "ghost" to the environment or remove the dependency`,
			}},
		},
		{
			name:  "self dependency",
			nodes: []Node{svc("a", "a")},
			want: diag.Problems{{
				File: "a.yaml", Object: "Terraform/a",
				Message: "dependency cycle: a -> a", Fix: cycleFix,
			}},
		},
		{
			name:  "cycle reported once with its whole path",
			nodes: []Node{svc("c", "a"), svc("b", "c"), svc("a", "b"), svc("d", "a")},
			want: diag.Problems{{
				File: "a.yaml", Object: "Terraform/a",
				Message: "dependency cycle: a -> b -> c -> a", Fix: cycleFix,
			}},
		},
		{
			name:  "cycle starts at its smallest name",
			nodes: []Node{svc("x", "m"), svc("m", "z"), svc("z", "x")},
			want: diag.Problems{{
				File: "m.yaml", Object: "Terraform/m",
				Message: "dependency cycle: m -> z -> x -> m", Fix: cycleFix,
			}},
		},
		{
			name:  "two cycles sharing a stack",
			nodes: []Node{svc("a", "b"), svc("b", "a", "c"), svc("c", "b")},
			want: diag.Problems{
				{File: "a.yaml", Object: "Terraform/a", Message: "dependency cycle: a -> b -> a", Fix: cycleFix},
				{File: "b.yaml", Object: "Terraform/b", Message: "dependency cycle: b -> c -> b", Fix: cycleFix},
			},
		},
		{
			name:  "separate cycles",
			nodes: []Node{svc("a", "b"), svc("b", "a"), svc("x", "y"), svc("y", "x")},
			want: diag.Problems{
				{File: "a.yaml", Object: "Terraform/a", Message: "dependency cycle: a -> b -> a", Fix: cycleFix},
				{File: "x.yaml", Object: "Terraform/x", Message: "dependency cycle: x -> y -> x", Fix: cycleFix},
			},
		},
		{
			name: "higher layer",
			nodes: []Node{
				{Name: "network", File: "network.yaml", Layer: 1, LayerName: "network", Deps: []Edge{{To: "api", Why: "dependsOn"}}},
				svc("api"),
			},
			want: diag.Problems{{
				File: "network.yaml", Object: "Terraform/network",
				Message: `depends on "api" in layer services, a higher layer than network`,
				Fix:     layerFix,
			}},
		},
		{
			name: "same and lower layer are fine",
			nodes: []Node{
				{Name: "network", File: "network.yaml", Layer: 1, LayerName: "network"},
				svc("db", "network"),
				svc("api", "db"),
			},
		},
		{
			name:  "duplicate name",
			nodes: []Node{svc("api"), {Name: "api", File: "other.yaml", Layer: 3}},
			want: diag.Problems{{
				File: "other.yaml", Object: "Terraform/api",
				Message: `stack "api" is defined twice (also in api.yaml)`,
				Fix:     "give each stack a unique name",
			}},
		},
		{
			name: "all problems at once",
			nodes: []Node{
				svc("a", "b", "ghost"), svc("b", "a"),
				{Name: "n", File: "n.yaml", Layer: 1, LayerName: "network", Deps: []Edge{{To: "a", Why: "reads contract a"}}},
			},
			want: diag.Problems{
				{File: "a.yaml", Object: "Terraform/a", Message: "dependency cycle: a -> b -> a", Fix: cycleFix},
				{File: "a.yaml", Object: "Terraform/a", Message: `depends on unknown stack "ghost" (dependsOn)`,
					Fix: `add a stack named "ghost" to the environment or remove the dependency`},
				{File: "n.yaml", Object: "Terraform/n", Message: `depends on "a" in layer services, a higher layer than network`, Fix: layerFix},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, got := Build(tt.nodes)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Build(%s) problems mismatch (-want +got):\n%s", tt.name, diff)
			}
			if (g == nil) != (len(tt.want) > 0) {
				t.Errorf("Build(%s) graph = %v, want nil exactly when there are problems", tt.name, g)
			}
		})
	}
}

func TestBuildMergesEdges(t *testing.T) {
	g := mustBuild(t, example())
	want := []Edge{
		{To: "cluster", Why: "dependsOn"},
		{To: "database", Why: "dependsOn, reads contract database"},
	}
	if diff := cmp.Diff(want, g.Deps("api")); diff != "" {
		t.Errorf("Deps(%q) mismatch (-want +got):\n%s", "api", diff)
	}
}

func TestBuildDoesNotChangeInput(t *testing.T) {
	nodes := example()
	before := example()
	mustBuild(t, nodes)
	if diff := cmp.Diff(before, nodes); diff != "" {
		t.Errorf("Build changed its input (-before +after):\n%s", diff)
	}
}
