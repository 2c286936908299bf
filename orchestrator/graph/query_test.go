package graph

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestOrder(t *testing.T) {
	tests := []struct {
		name  string
		nodes []Node
		want  []string
	}{
		{
			name:  "example",
			nodes: example(),
			want:  []string{"account", "network", "cluster", "database", "api", "monitoring"},
		},
		{
			name: "ties by layer then name",
			nodes: []Node{
				{Name: "b", Layer: 2}, {Name: "a", Layer: 2}, {Name: "z", Layer: 0}, {Name: "c", Layer: 1},
			},
			want: []string{"z", "c", "a", "b"},
		},
		{
			name: "dependencies before names",
			nodes: []Node{
				{Name: "a", Deps: []Edge{{To: "b"}}}, {Name: "b", Deps: []Edge{{To: "c"}}}, {Name: "c"},
			},
			want: []string{"c", "b", "a"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustBuild(t, tt.nodes).Order()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Order() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOrderIsStable(t *testing.T) {
	want := mustBuild(t, example()).Order()
	for i := range 20 {
		nodes := example()
		// Reverse the input: the order must not depend on it.
		for l, r := 0, len(nodes)-1; l < r; l, r = l+1, r-1 {
			nodes[l], nodes[r] = nodes[r], nodes[l]
		}
		if got := mustBuild(t, nodes).Order(); !cmp.Equal(got, want) {
			t.Fatalf("Order() run %d = %v, want %v", i, got, want)
		}
	}
}

func TestNodes(t *testing.T) {
	g := mustBuild(t, example())
	var names []string
	for _, n := range g.Nodes() {
		names = append(names, n.Name)
	}
	if diff := cmp.Diff(g.Order(), names); diff != "" {
		t.Errorf("Nodes() not in Order() (-order +nodes):\n%s", diff)
	}
	// The nodes are copies.
	g.Nodes()[0].Deps = append(g.Nodes()[0].Deps, Edge{To: "x"})
	g.Nodes()[1].Deps[0].To = "changed"
	if got := g.Deps("network"); got[0].To != "account" {
		t.Errorf("Deps(%q) = %v after changing a copy, want it unchanged", "network", got)
	}
}

func TestDepsDependentsDownstream(t *testing.T) {
	g := mustBuild(t, example())
	tests := []struct {
		name       string
		deps       []Edge
		dependents []string
		downstream []string
	}{
		{
			name:       "account",
			dependents: []string{"network"},
			downstream: []string{"api", "cluster", "database", "network"},
		},
		{
			name:       "network",
			deps:       []Edge{{To: "account", Why: "dependsOn"}},
			dependents: []string{"cluster", "database"},
			downstream: []string{"api", "cluster", "database"},
		},
		{
			name:       "database",
			deps:       []Edge{{To: "network", Why: "reads contract network"}},
			dependents: []string{"api"},
			downstream: []string{"api"},
		},
		{
			name: "api",
			deps: []Edge{
				{To: "cluster", Why: "dependsOn"},
				{To: "database", Why: "dependsOn, reads contract database"},
			},
		},
		{name: "monitoring"},
		{name: "unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.deps, g.Deps(tt.name)); diff != "" {
				t.Errorf("Deps(%q) mismatch (-want +got):\n%s", tt.name, diff)
			}
			if diff := cmp.Diff(tt.dependents, g.Dependents(tt.name)); diff != "" {
				t.Errorf("Dependents(%q) mismatch (-want +got):\n%s", tt.name, diff)
			}
			if diff := cmp.Diff(tt.downstream, g.Downstream(tt.name)); diff != "" {
				t.Errorf("Downstream(%q) mismatch (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}
