package graph

import (
	"container/heap"
	"fmt"
	"slices"
	"strings"

	"github.com/strata-iac/strata/orchestrator/diag"
)

// Build checks the nodes and returns their graph. Every problem is reported
// at once, each naming the node's file and object ("Terraform/<name>"):
//   - a dependency on a stack that is not in the graph;
//   - a dependency cycle, once per cycle with its whole path
//     ("dependency cycle: a -> b -> a", where "a -> b" means a depends on
//     b); a stack that depends on itself is the cycle "a -> a";
//   - a dependency on a stack in a higher layer;
//   - two stacks with the same name.
//
// Duplicate edges to the same stack are merged and their reasons joined by
// ", ". When there are problems the graph is nil.
func Build(nodes []Node) (*Graph, diag.Problems) {
	var problems diag.Problems
	byName := make(map[string]Node, len(nodes))
	for _, n := range nodes {
		if first, ok := byName[n.Name]; ok {
			problems = append(problems, diag.Problem{
				File:    n.File,
				Object:  object(n.Name),
				Message: fmt.Sprintf("stack %q is defined twice (also in %s)", n.Name, first.File),
				Fix:     "give each stack a unique name",
			})
			continue
		}
		n.Deps = mergeEdges(n.Deps)
		byName[n.Name] = n
	}

	names := sortedNames(byName)
	for _, name := range names {
		n := byName[name]
		for _, e := range n.Deps {
			dep, ok := byName[e.To]
			if !ok {
				problems = append(problems, diag.Problem{
					File:    n.File,
					Object:  object(n.Name),
					Message: fmt.Sprintf("depends on unknown stack %q (%s)", e.To, e.Why),
					Fix:     fmt.Sprintf("add a stack named %q to the environment or remove the dependency", e.To),
				})
				continue
			}
			if dep.Layer > n.Layer {
				problems = append(problems, diag.Problem{
					File:    n.File,
					Object:  object(n.Name),
					Message: fmt.Sprintf("depends on %q in layer %s, a higher layer than %s", dep.Name, layerLabel(dep), layerLabel(n)),
					Fix:     "a stack may only depend on stacks in its own or a lower layer: move one of them or remove the dependency",
				})
			}
		}
	}

	for _, cycle := range findCycles(byName, names) {
		n := byName[cycle[0]]
		problems = append(problems, diag.Problem{
			File:    n.File,
			Object:  object(n.Name),
			Message: "dependency cycle: " + strings.Join(cycle, " -> "),
			Fix:     "remove one of these dependencies",
		})
	}

	if len(problems) > 0 {
		problems.Sort()
		return nil, problems
	}

	g := &Graph{
		nodes:      byName,
		dependents: make(map[string][]string, len(byName)),
	}
	for _, name := range names {
		for _, e := range byName[name].Deps {
			g.dependents[e.To] = append(g.dependents[e.To], name)
		}
	}
	g.order = topoOrder(byName)
	return g, nil
}

func object(name string) string { return "Terraform/" + name }

// mergeEdges merges edges to the same stack, joining their distinct
// reasons by ", " in the order given, and sorts the result by name.
func mergeEdges(edges []Edge) []Edge {
	if len(edges) == 0 {
		return nil
	}
	index := make(map[string]int, len(edges))
	whys := make([][]string, 0, len(edges))
	merged := make([]Edge, 0, len(edges))
	for _, e := range edges {
		i, ok := index[e.To]
		if !ok {
			i = len(merged)
			index[e.To] = i
			merged = append(merged, Edge{To: e.To})
			whys = append(whys, nil)
		}
		if e.Why != "" && !slices.Contains(whys[i], e.Why) {
			whys[i] = append(whys[i], e.Why)
		}
	}
	for i := range merged {
		merged[i].Why = strings.Join(whys[i], ", ")
	}
	slices.SortFunc(merged, func(a, b Edge) int { return strings.Compare(a.To, b.To) })
	return merged
}

func sortedNames(byName map[string]Node) []string {
	names := make([]string, 0, len(byName))
	for name := range byName {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// findCycles returns the dependency cycles among known nodes, each once,
// as a path that starts and ends at its smallest name. Within every
// strongly connected component it reports, for each node not yet on a
// reported cycle, the shortest cycle through it, so every node that is on
// a cycle appears in at least one, and the report stays small.
func findCycles(byName map[string]Node, names []string) [][]string {
	var cycles [][]string
	seen := make(map[string]bool)
	for _, comp := range components(byName, names) {
		inComp := make(map[string]bool, len(comp))
		for _, name := range comp {
			inComp[name] = true
		}
		covered := make(map[string]bool, len(comp))
		for _, start := range comp {
			if covered[start] {
				continue
			}
			cycle := shortestCycle(byName, inComp, start)
			if cycle == nil {
				continue // a single node without a self-dependency
			}
			cycle = rotate(cycle)
			for _, name := range cycle {
				covered[name] = true
			}
			key := strings.Join(cycle, "\x00")
			if !seen[key] {
				seen[key] = true
				cycles = append(cycles, cycle)
			}
		}
	}
	slices.SortFunc(cycles, func(a, b []string) int { return slices.Compare(a, b) })
	return cycles
}

// components returns the strongly connected components of the graph of
// known edges (Tarjan's algorithm), each sorted by name.
func components(byName map[string]Node, names []string) [][]string {
	var (
		index   = make(map[string]int, len(names))
		low     = make(map[string]int, len(names))
		onStack = make(map[string]bool, len(names))
		stack   []string
		comps   [][]string
		next    int
	)
	var visit func(v string)
	visit = func(v string) {
		index[v] = next
		low[v] = next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, e := range byName[v].Deps {
			w := e.To
			if _, ok := byName[w]; !ok {
				continue
			}
			if _, visited := index[w]; !visited {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var comp []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			slices.Sort(comp)
			comps = append(comps, comp)
		}
	}
	for _, name := range names {
		if _, visited := index[name]; !visited {
			visit(name)
		}
	}
	return comps
}

// shortestCycle returns the shortest path start -> … -> start that stays
// inside the component, or nil when there is none. Edges are followed in
// name order, so the answer is deterministic.
func shortestCycle(byName map[string]Node, inComp map[string]bool, start string) []string {
	parent := map[string]string{}
	queue := []string{start}
	visited := map[string]bool{}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, e := range byName[v].Deps {
			w := e.To
			if !inComp[w] {
				continue
			}
			if w == start {
				path := []string{start}
				for u := v; u != start; u = parent[u] {
					path = append(path, u)
				}
				slices.Reverse(path[1:])
				return append(path, start)
			}
			if !visited[w] {
				visited[w] = true
				parent[w] = v
				queue = append(queue, w)
			}
		}
	}
	return nil
}

// rotate turns the cycle a -> … -> a so that it starts and ends at its
// smallest name.
func rotate(cycle []string) []string {
	ring := cycle[:len(cycle)-1]
	at := 0
	for i, name := range ring {
		if name < ring[at] {
			at = i
		}
	}
	out := make([]string, 0, len(cycle))
	out = append(out, ring[at:]...)
	out = append(out, ring[:at]...)
	return append(out, ring[at])
}

// topoOrder orders an acyclic graph dependencies first; among the stacks
// that are ready at the same time the lower layer goes first, then the
// smaller name.
func topoOrder(byName map[string]Node) []string {
	waiting := make(map[string]int, len(byName))
	dependents := make(map[string][]string, len(byName))
	ready := &readyQueue{}
	for name, n := range byName {
		waiting[name] = len(n.Deps)
		for _, e := range n.Deps {
			dependents[e.To] = append(dependents[e.To], name)
		}
		if len(n.Deps) == 0 {
			ready.nodes = append(ready.nodes, n)
		}
	}
	heap.Init(ready)
	order := make([]string, 0, len(byName))
	for ready.Len() > 0 {
		n := heap.Pop(ready).(Node)
		order = append(order, n.Name)
		for _, d := range dependents[n.Name] {
			waiting[d]--
			if waiting[d] == 0 {
				heap.Push(ready, byName[d])
			}
		}
	}
	return order
}

// readyQueue is a min-heap of nodes by (layer, name).
type readyQueue struct{ nodes []Node }

func (q *readyQueue) Len() int { return len(q.nodes) }
func (q *readyQueue) Less(i, j int) bool {
	a, b := q.nodes[i], q.nodes[j]
	if a.Layer != b.Layer {
		return a.Layer < b.Layer
	}
	return a.Name < b.Name
}
func (q *readyQueue) Swap(i, j int) { q.nodes[i], q.nodes[j] = q.nodes[j], q.nodes[i] }
func (q *readyQueue) Push(x any)    { q.nodes = append(q.nodes, x.(Node)) }
func (q *readyQueue) Pop() any {
	n := q.nodes[len(q.nodes)-1]
	q.nodes = q.nodes[:len(q.nodes)-1]
	return n
}
