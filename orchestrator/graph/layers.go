package graph

import "slices"

// layer is one layer of the graph with its nodes in run order.
type layer struct {
	number int
	label  string
	nodes  []Node
}

// layers groups the nodes by layer, lowest layer first, keeping run order
// within each layer. A layer is labelled by the name its first node gives.
func (g *Graph) layers() []layer {
	var out []layer
	at := map[int]int{}
	for _, n := range g.Nodes() {
		i, ok := at[n.Layer]
		if !ok {
			i = len(out)
			at[n.Layer] = i
			out = append(out, layer{number: n.Layer, label: layerLabel(n)})
		}
		out[i].nodes = append(out[i].nodes, n)
	}
	slices.SortStableFunc(out, func(a, b layer) int { return a.number - b.number })
	return out
}
