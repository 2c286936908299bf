// Package consumers says, for an environment, who reads which keys of
// which contract, and where.
//
// Feeds turns what a stack's Terraform object says it reads into the
// variables package readers follows: each readInputsFromSecrets entry
// hands the variable named by `as` the whole document, each
// strata.dev/read-contracts line hands its variable a map of the
// environment's matching contracts, each varsKeys key or valueFrom key of
// another stack's Secret feeds the variable it names, and a varsFrom of
// such a Secret without varsKeys feeds every variable the key of its own
// name. A values template reads, at the Terraform object's file, each key
// its ${{ .AS.KEY }} names. Find reads each consumer's code and indexes
// the reads by contract. A consumer whose code cannot be read is indexed
// as reading every key, with the reason: a check must not pass because it
// could not look.
package consumers
