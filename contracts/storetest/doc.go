// Package storetest holds the checks every contract store must pass, so
// that local, ssm and s3 are held to one behaviour: a document read back is
// the document written, a missing key is contracts.ErrNotFound, and List
// reads prefixes the same way.
package storetest
