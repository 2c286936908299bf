package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator"
	"github.com/strata-iac/strata/orchestrator/graph"
)

func newGraphCommand(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "graph ENV",
		Short: "Print an environment's stack graph as text, Graphviz DOT or Mermaid",
		Long: `graph prints the stacks of an environment in their layers (account,
network, cluster, services) with their dependencies: those named in
dependsOn and those that come from contracts (a stack that reads another's
outputs depends on it). Stacks that a problem holds back (see validate) are
left out, and said on stderr, as are the warnings and kustomize's
deprecation warnings, each naming its file: stdout holds the graph alone.`,
		Example: "  strata graph environments/demo/dev\n  strata graph environments/demo/dev -o dot | dot -Tsvg > graph.svg\n  strata graph environments/demo/dev -o mermaid",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.checkOutput("text", "dot", "mermaid", "json"); err != nil {
				return err
			}
			env, gr, err := orchestrator.Validate(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			for _, b := range env.Blocked {
				fmt.Fprintf(g.stderr, "not in the graph: %s\n", b)
			}
			orchestrator.LogWarnings(runLogTo(g, g.stderr), env)
			switch g.output {
			case "dot":
				return gr.WriteDOT(g.stdout)
			case "mermaid":
				return gr.WriteMermaid(g.stdout)
			case "json":
				return writeJSON(g.stdout, graphJSON(gr))
			default:
				return gr.WriteText(g.stdout)
			}
		},
	}
	g.registerClusterInputs(cmd)
	return cmd
}

type jsonNode struct {
	Stack     string       `json:"stack"`
	Layer     string       `json:"layer"`
	File      string       `json:"file"`
	DependsOn []graph.Edge `json:"dependsOn"`
}

func graphJSON(gr *graph.Graph) []jsonNode {
	out := []jsonNode{}
	for _, n := range gr.Nodes() {
		deps := gr.Deps(n.Name)
		if deps == nil {
			deps = []graph.Edge{}
		}
		out = append(out, jsonNode{Stack: n.Name, Layer: n.LayerName, File: n.File, DependsOn: deps})
	}
	return out
}

func countEdges(nodes []graph.Node) int {
	n := 0
	for _, node := range nodes {
		n += len(node.Deps)
	}
	return n
}
