// Command strata-sops decrypts SOPS-encrypted values for strata. strata
// runs it, once per render that decrypts, and speaks to it one line of
// JSON per value on its standard input and output (package decryption's
// Request and Response); it decrypts with age identities and OpenPGP keys
// through the sops library (package sopsfile). It is a program of its own
// so that sops, which links every cloud KMS SDK, stays out of strata's
// memory; install it beside strata.
//
//	strata-sops [--age-key-file FILE]       answer strata's requests until stdin ends
//	strata-sops check-age-key-file FILE     check that FILE holds an age identity
//
// It writes decrypted values to its standard output only; sops' log lines
// are discarded, and its standard error holds only its own failures.
package main
