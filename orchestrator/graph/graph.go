package graph

import "strconv"

// Edge is one dependency of a stack.
type Edge struct {
	// To is the name of the stack depended on.
	To string `json:"to"`
	// Why says where the dependency comes from, for example "dependsOn" or
	// "reads contract network". Duplicate edges are merged by Build, their
	// reasons joined by ", ".
	Why string `json:"why"`
}

// Node is one stack.
type Node struct {
	// Name is the stack's name, unique in the graph.
	Name string `json:"name"`
	// File is the file that defines the stack; problems name it.
	File string `json:"file"`
	// Layer orders layers: lower layers run first, and a stack never
	// depends on a stack in a higher layer.
	Layer int `json:"layer"`
	// LayerName is the layer's name, for messages and renderings.
	LayerName string `json:"layerName"`
	// Deps are the stack's direct dependencies.
	Deps []Edge `json:"deps"`
	// Waiting, when set, lists the inputs ("Secret/namespace/name") the
	// stack waits for: it has its place in the graph but does not run
	// until they are given.
	Waiting []string `json:"waiting,omitempty"`
}

// Graph is a checked, acyclic dependency graph. Build makes one; it is
// read-only afterwards and safe for concurrent use.
type Graph struct {
	// order is every node name, dependencies first.
	order []string
	// nodes holds each node with its merged, sorted Deps.
	nodes map[string]Node
	// dependents maps a name to its direct dependents, sorted.
	dependents map[string][]string
}

// layerLabel names a layer for people: its name, or its number when it has
// none.
func layerLabel(n Node) string {
	if n.LayerName != "" {
		return n.LayerName
	}
	return "layer " + strconv.Itoa(n.Layer)
}
