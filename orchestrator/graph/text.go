package graph

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteText writes the graph for people: the stacks grouped by layer,
// lowest layer first, in run order within a layer, each followed by the
// stacks it depends on and why:
//
//	layer network
//	  network
//	    ← depends on account (dependsOn)
func (g *Graph) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, layer := range g.layers() {
		fmt.Fprintf(bw, "layer %s\n", layer.label)
		for _, n := range layer.nodes {
			if len(n.Waiting) > 0 {
				fmt.Fprintf(bw, "  %s (waiting for input %s)\n", n.Name, strings.Join(n.Waiting, ", "))
			} else {
				fmt.Fprintf(bw, "  %s\n", n.Name)
			}
			for _, e := range n.Deps {
				if e.Why == "" {
					fmt.Fprintf(bw, "    ← depends on %s\n", e.To)
					continue
				}
				fmt.Fprintf(bw, "    ← depends on %s (%s)\n", e.To, e.Why)
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write graph as text: %w", err)
	}
	return nil
}
