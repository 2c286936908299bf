// Package statedir lays out strata's state directory and joins every path
// strata writes under it.
//
// A path under the state directory is built from names that come from the
// repository (client, environment, stack, plan id). Join accepts only
// single path elements, never "", "." or "..", and resolves the result with
// a secure join (github.com/cyphar/filepath-securejoin), so no name and no
// symlink under the directory can lead out of it or nest one name inside
// another. Validation already refuses such names (see environment); Join
// is the last line.
package statedir
