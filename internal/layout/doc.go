// Package layout holds the rules of the house's shape, checked by its
// test over every package of the module (go list): each package has a
// doc.go that says what it is; no package imports a command; the
// packages under internal/ import nothing of the project outside
// internal/; and no package under orchestrator/ that does not already
// do so imports the orchestrator package itself, the pipeline, from
// below it.
package layout
