// Package source fetches a stack's code from its spec.sourceRef and says
// which version and content digest it is.
//
// The embedded default is the GitRepository named flux-system: this
// repository's own checkout, which needs no registry. The digest of a local
// source is the h1 directory hash (golang.org/x/mod/sumdb/dirhash) of the
// stack's directory, so any change to its code is seen.
//
// A stack read from a cluster (strata controller) names the artifact
// source-controller made of its source; its digest is the artifact's, and
// Fetch downloads it through Resolver.Artifacts (package artifact), which
// checks the digest and caches the content by it. Artifact.URL then says
// where a runner elsewhere fetches the same code again.
package source
