// Package consumers says, for an environment, who reads which keys of
// which contract, and where.
//
// Feeds turns what a stack's Terraform object says it reads into the
// variables package readers follows: each readInputsFromSecrets entry
// hands the variable named by `as` the whole document, and each
// strata.dev/read-contracts line hands its variable a map of the
// environment's matching contracts. (A new way of feeding contract data
// to a stack — varsFrom keys, values templates — is one more case in
// Feeds.) Find reads each consumer's code and indexes the reads by
// contract. A consumer whose code cannot be read is indexed as reading
// every key, with the reason: a check must not pass because it could not
// look.
package consumers
