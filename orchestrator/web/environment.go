package web

import (
	"net/http"
	"slices"
	"strings"
)

// Graph geometry, in SVG user units.
const (
	colWidth   = 230
	nodeWidth  = 170
	nodeHeight = 46
	rowHeight  = 72
	topMargin  = 56
	sideMargin = 24
)

type environmentPage struct {
	page
	Env   *envView
	Graph svgGraph
}

// svgGraph is the environment's graph laid out: one column per layer,
// stacks in run order within it.
type svgGraph struct {
	Width, Height int
	Layers        []svgLayer
	Nodes         []svgNode
	Edges         []svgEdge
}

type svgLayer struct {
	X    int
	Name string
}

type svgNode struct {
	X, Y, TextX, TextY, ResultY int
	Stack                       *stackView
}

type svgEdge struct {
	From, To string
	// Path is the edge's SVG path data; Kind is "dependsOn", "contract",
	// or both ("dependsOn contract"), as CSS classes; Why says where it
	// comes from.
	Path, Kind, Why string
}

// edgeKind reads an edge's kinds from why the graph has it:
// "dependsOn", "reads contract X" or "reads contracts matching …",
// merged with ", ".
func edgeKind(why string) string {
	var kinds []string
	if strings.Contains(why, "dependsOn") {
		kinds = append(kinds, "dependsOn")
	}
	if strings.Contains(why, "contract") {
		kinds = append(kinds, "contract")
	}
	if len(kinds) == 0 {
		return "dependsOn"
	}
	return strings.Join(kinds, " ")
}

// layout places the environment's stacks: a column per layer, lowest
// first; edges run from the stack depended on to its dependent.
func layout(v *envView) svgGraph {
	var g svgGraph
	nodes := v.graph.Nodes()
	var layers []int
	names := map[int]string{}
	for _, n := range nodes {
		if !slices.Contains(layers, n.Layer) {
			layers = append(layers, n.Layer)
			names[n.Layer] = n.LayerName
		}
	}
	slices.Sort(layers)
	col := map[int]int{}
	for i, l := range layers {
		col[l] = i
		g.Layers = append(g.Layers, svgLayer{X: sideMargin + i*colWidth, Name: names[l]})
	}
	rows := make([]int, len(layers))
	at := map[string]svgNode{}
	maxRows := 0
	for _, n := range nodes {
		c := col[n.Layer]
		x, y := sideMargin+c*colWidth, topMargin+rows[c]*rowHeight
		rows[c]++
		maxRows = max(maxRows, rows[c])
		sn := svgNode{X: x, Y: y, TextX: x + 12, TextY: y + 19, ResultY: y + 37, Stack: v.stack(n.Name)}
		if sn.Stack == nil {
			sn.Stack = &stackView{Client: v.Client, Env: v.Name, Name: n.Name}
		}
		at[n.Name] = sn
		g.Nodes = append(g.Nodes, sn)
	}
	for _, n := range nodes {
		to := at[n.Name]
		for _, e := range n.Deps {
			from, ok := at[e.To]
			if !ok {
				continue
			}
			kind := edgeKind(e.Why)
			g.Edges = append(g.Edges, svgEdge{From: e.To, To: n.Name, Path: edgePath(from, to), Kind: kind, Why: e.To + " → " + n.Name + ": " + e.Why})
		}
	}
	g.Width = sideMargin*2 + max(1, len(layers))*colWidth - (colWidth - nodeWidth)
	g.Height = topMargin + max(1, maxRows)*rowHeight
	return g
}

// edgePath is a curve from the right of one node to the left of another;
// within a column it bows out to the right.
func edgePath(from, to svgNode) string {
	x1, y1 := from.X+nodeWidth, from.Y+nodeHeight/2
	if from.X == to.X {
		x2, y2 := to.X+nodeWidth, to.Y+nodeHeight/2
		return pathf("M%d %d C%d %d %d %d %d %d", x1, y1, x1+40, y1, x2+40, y2, x2, y2)
	}
	x2, y2 := to.X, to.Y+nodeHeight/2
	mid := (x1 + x2) / 2
	return pathf("M%d %d C%d %d %d %d %d %d", x1, y1, mid, y1, mid, y2, x2, y2)
}

// handleEnvironment shows one environment's graph.
func (s *Server) handleEnvironment(w http.ResponseWriter, r *http.Request) {
	envs := s.environments(r.Context())
	v := find(envs, r.PathValue("client"), r.PathValue("env"))
	if v == nil {
		s.renderError(w, r, http.StatusNotFound, "There is no environment "+r.PathValue("client")+"/"+r.PathValue("env")+" in this view.")
		return
	}
	p := &environmentPage{page: s.newPage(w, r, v.Client+"/"+v.Name), Env: v}
	if v.graph != nil {
		p.Graph = layout(v)
	}
	s.render(w, r, http.StatusOK, "environment", p)
}
