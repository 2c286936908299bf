// Package certpool makes the certificate pools strata's clients trust:
// the system's roots and a CA bundle of their own.
package certpool
