// Package statefile reads which version of a stack's state exists: the
// serial and lineage of the state file, cheaply, without tofu. strata
// records them after every apply; a state whose serial or lineage differs
// from the record was changed outside strata (`tofu state rm`, another
// tool), so the stack is planned again whatever its inputs.
//
// Local state is a file read; S3 state is one GET of the state object.
// Any other backend (a backendConfig.customConfiguration) is not read, and
// the check does not apply to it.
package statefile
