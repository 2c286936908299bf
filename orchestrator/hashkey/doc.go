// Package hashkey keeps the key strata's input hashes are keyed with.
//
// The history records a hash of each of a stack's inputs, some of them
// private (a repository Secret, another stack's sensitive output). A plain
// hash of a weak password can be brute-forced offline by anyone who reads
// the history; an HMAC-SHA256 under a random 32-byte key that never leaves
// strata cannot. The key is created once, from crypto/rand, and kept in
// the state directory as a file only its owner reads (0600), created
// atomically so that of two processes that start together exactly one
// writes it and both use the same key.
//
// ID names a key without revealing it, so a run can record which key its
// hashes are under: when the key is lost (the file deleted) the next run
// sees a different ID and knows its hashes cannot be compared.
package hashkey
