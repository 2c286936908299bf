// Package suggest finds the name a misspelt one most likely meant, for
// the "write X" of a problem's fix: the candidate at the least edit
// distance, ignoring case.
package suggest
