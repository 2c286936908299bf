// Package layout holds the rules of the house's shape, checked by its
// test over every package of the module (go list): each package has a
// doc.go that says what it is; no package imports a command; the
// packages under internal/ import nothing of the project outside
// internal/; the orchestrator package holds only its doc.go; no package
// under orchestrator/ imports the pipeline, orchestrator/reconcile; the
// model (orchestrator/environment) and the Flux renderer
// (orchestrator/flux) import only the rooms their list names; and
// docs/architecture.md, the map, has a line for every package.
package layout
