// Package source fetches a stack's code from its spec.sourceRef and says
// which version and content digest it is.
//
// The embedded default is the GitRepository named flux-system: this
// repository's own checkout, which needs no registry. The digest of a local
// source is the h1 directory hash (golang.org/x/mod/sumdb/dirhash) of the
// stack's directory, so any change to its code is seen.
package source
