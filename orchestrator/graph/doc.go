// Package graph is the dependency graph of an environment's stacks.
//
// A node is a stack, placed in a layer; an edge says that a stack depends
// on another and why (a dependsOn entry, or a contract it reads). Build
// checks the whole graph at once — unknown stacks, cycles with their full
// path, and dependencies on a higher layer — and the Graph it returns gives
// a deterministic run order and renders itself as text, Graphviz DOT or
// Mermaid.
//
// The package is generic: it knows names, files and layers, not the
// environment model, so callers translate their stacks into Nodes.
package graph
