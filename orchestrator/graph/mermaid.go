package graph

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteMermaid writes the graph as a Mermaid "flowchart LR": one subgraph
// per layer, and an edge from each dependency to its dependent labelled
// with why. Node ids are generated (s0, s1, … in run order) so that any
// stack name is safe; the name is the node's label.
func (g *Graph) WriteMermaid(w io.Writer) error {
	bw := bufio.NewWriter(w)
	ids := make(map[string]string, len(g.order))
	for i, name := range g.order {
		ids[name] = fmt.Sprintf("s%d", i)
	}
	bw.WriteString("flowchart LR\n")
	for i, layer := range g.layers() {
		fmt.Fprintf(bw, "  subgraph layer%d[\"%s\"]\n", i, mermaidText(layer.label))
		for _, n := range layer.nodes {
			if len(n.Waiting) > 0 {
				fmt.Fprintf(bw, "    %s[\"%s (waiting for input %s)\"]\n", ids[n.Name], mermaidText(n.Name), mermaidText(strings.Join(n.Waiting, ", ")))
				continue
			}
			fmt.Fprintf(bw, "    %s[\"%s\"]\n", ids[n.Name], mermaidText(n.Name))
		}
		bw.WriteString("  end\n")
	}
	for _, n := range g.Nodes() {
		for _, e := range n.Deps {
			if e.Why == "" {
				fmt.Fprintf(bw, "  %s --> %s\n", ids[e.To], ids[n.Name])
				continue
			}
			fmt.Fprintf(bw, "  %s -->|\"%s\"| %s\n", ids[e.To], mermaidText(e.Why), ids[n.Name])
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write graph as mermaid: %w", err)
	}
	return nil
}

// mermaidText escapes s for a quoted Mermaid label.
func mermaidText(s string) string {
	r := strings.NewReplacer(`"`, "#quot;", "\n", " ")
	return r.Replace(s)
}
