package orchestrator

import (
	"context"
	"fmt"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/graph"
)

// Validate loads an environment and builds its graph: every check that
// runs before anything runs. The error is a diag.Problems listing every
// problem found.
func Validate(ctx context.Context, dir string) (*environment.Environment, *graph.Graph, error) {
	env, err := environment.Load(ctx, dir)
	if err != nil {
		return nil, nil, err
	}
	g, problems := graph.Build(Nodes(env))
	if len(problems) > 0 {
		problems.Sort()
		return env, nil, problems
	}
	return env, g, nil
}

// Nodes turns an environment's stacks into graph nodes. A stack depends on
// the stacks it names in dependsOn and on the producer of every contract it
// reads.
func Nodes(env *environment.Environment) []graph.Node {
	nodes := make([]graph.Node, 0, len(env.Stacks))
	for _, s := range env.Stacks {
		n := graph.Node{Name: s.Name, File: s.File, Layer: int(s.Layer), LayerName: s.Layer.String()}
		for _, d := range s.DependsOn {
			n.Deps = append(n.Deps, graph.Edge{To: d, Why: "dependsOn"})
		}
		for _, in := range s.Consumes {
			if p := env.Producer(in.Contract); p != nil {
				n.Deps = append(n.Deps, graph.Edge{To: p.Name, Why: fmt.Sprintf("reads contract %s", in.Contract)})
			}
		}
		nodes = append(nodes, n)
	}
	return nodes
}
