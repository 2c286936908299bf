package graph

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteDOT writes the graph in Graphviz DOT: one cluster subgraph per
// layer, and an edge from each dependency to its dependent labelled with
// why, so arrows point the way runs flow.
func (g *Graph) WriteDOT(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("digraph strata {\n")
	bw.WriteString("  rankdir=LR;\n")
	bw.WriteString("  node [shape=box];\n")
	for _, layer := range g.layers() {
		fmt.Fprintf(bw, "  subgraph %s {\n", dotQuote(fmt.Sprintf("cluster_%d", layer.number)))
		fmt.Fprintf(bw, "    label=%s;\n", dotQuote(layer.label))
		for _, n := range layer.nodes {
			if len(n.Waiting) > 0 {
				fmt.Fprintf(bw, "    %s [style=dashed, tooltip=%s];\n", dotQuote(n.Name), dotQuote("waiting for input "+strings.Join(n.Waiting, ", ")))
				continue
			}
			fmt.Fprintf(bw, "    %s;\n", dotQuote(n.Name))
		}
		bw.WriteString("  }\n")
	}
	for _, n := range g.Nodes() {
		for _, e := range n.Deps {
			fmt.Fprintf(bw, "  %s -> %s", dotQuote(e.To), dotQuote(n.Name))
			if e.Why != "" {
				fmt.Fprintf(bw, " [label=%s]", dotQuote(e.Why))
			}
			bw.WriteString(";\n")
		}
	}
	bw.WriteString("}\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write graph as dot: %w", err)
	}
	return nil
}

// dotQuote makes s a quoted DOT ID.
func dotQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
