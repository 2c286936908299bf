package graph

import "slices"

// Nodes returns every node in Order, each with its merged dependencies
// sorted by name. The slice and its nodes are copies.
func (g *Graph) Nodes() []Node {
	out := make([]Node, 0, len(g.order))
	for _, name := range g.order {
		n := g.nodes[name]
		n.Deps = slices.Clone(n.Deps)
		out = append(out, n)
	}
	return out
}

// Order returns every stack name, dependencies first. Stacks that could go
// in either order are ordered by layer, then by name, so the order is the
// same on every call and every machine.
func (g *Graph) Order() []string { return slices.Clone(g.order) }

// Deps returns the direct dependencies of the named stack, sorted by name;
// nil for a stack that is not in the graph.
func (g *Graph) Deps(name string) []Edge { return slices.Clone(g.nodes[name].Deps) }

// Dependents returns the stacks that directly depend on the named stack,
// sorted.
func (g *Graph) Dependents(name string) []string { return slices.Clone(g.dependents[name]) }

// Downstream returns every stack that depends on the named stack, directly
// or through others, sorted. The stack itself is not included.
func (g *Graph) Downstream(name string) []string {
	seen := map[string]bool{name: true}
	var out []string
	queue := []string{name}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, d := range g.dependents[v] {
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
				queue = append(queue, d)
			}
		}
	}
	slices.Sort(out)
	return out
}
