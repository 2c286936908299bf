package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/graph"
	"github.com/strata-iac/strata/orchestrator/validate"
)

func newGraphCommand(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "graph ENV",
		Short: "Print an environment's stack graph as text, Graphviz DOT or Mermaid",
		Long: `graph prints the stacks of an environment in their layers (account,
network, cluster, services) with their dependencies: those named in
dependsOn and those that come from contracts (a stack that reads another's
outputs depends on it). A stack that waits only for a ConfigMap or Secret
that lives in the cluster (see validate, --inputs, --kubeconfig) keeps its
place, marked as waiting with the inputs it needs ("waiting": true and
"inputs" in -o json); it does not run until they are given. Stacks that
a problem holds back are left out, and said on stderr, as are the warnings
and kustomize's deprecation warnings, each naming its file: stdout holds
the graph alone.`,
		Example: "  strata graph environments/demo/dev\n  strata graph environments/demo/dev -o dot | dot -Tsvg > graph.svg\n  strata graph environments/demo/dev -o mermaid",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.checkOutput("text", "dot", "mermaid", "json"); err != nil {
				return err
			}
			env, gr, err := validate.Environment(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			for _, b := range env.Blocked {
				if b.Waiting && b.Held != nil {
					fmt.Fprintf(g.stderr, "waiting, in the graph but not run: %s\n", b)
					continue
				}
				fmt.Fprintf(g.stderr, "not in the graph: %s\n", b)
			}
			gr = validate.WithWaiting(env, gr)
			validate.LogWarnings(runLogTo(g, g.stderr), env)
			switch g.output {
			case "dot":
				return gr.WriteDOT(g.stdout)
			case "mermaid":
				return gr.WriteMermaid(g.stdout)
			case "json":
				return writeJSON(g.stdout, graphJSON(gr, env))
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
	// Waiting is set on a stack that waits for inputs from the cluster,
	// and Inputs lists them: it has its place, and does not run.
	Waiting bool         `json:"waiting,omitempty"`
	Inputs  []diag.Input `json:"inputs,omitempty"`
}

func graphJSON(gr *graph.Graph, env *environment.Environment) []jsonNode {
	inputs := map[string][]diag.Input{}
	for _, b := range env.Blocked {
		if b.Waiting && b.Held != nil {
			inputs[b.Stack] = b.Inputs()
		}
	}
	out := []jsonNode{}
	for _, n := range gr.Nodes() {
		deps := gr.Deps(n.Name)
		if deps == nil {
			deps = []graph.Edge{}
		}
		out = append(out, jsonNode{Stack: n.Name, Layer: n.LayerName, File: n.File, DependsOn: deps, Waiting: len(n.Waiting) > 0, Inputs: inputs[n.Name]})
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
