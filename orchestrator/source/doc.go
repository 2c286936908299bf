// Package source fetches a stack's code from its spec.sourceRef and says
// which version and content digest it is.
//
// The embedded default is the GitRepository named flux-system: this
// repository's own checkout, which needs no registry. The digest of a local
// source is the h1 directory hash (golang.org/x/mod/sumdb/dirhash) of the
// stack's directory, so any change to its code is seen. A GitRepository
// that is this repository under another name (environment.Source.Self)
// is read the same way.
//
// A GitRepository that is another repository is fetched by package git,
// and a Bucket by package bucket, as source-controller fetches them, into
// the state directory's cache (cache/git, cache/buckets): the digest is
// again the h1 hash of the stack's directory in the fetched tree, and the
// version the tag its ref resolved to, when that is a version.
//
// A stack read from a cluster (strata controller) names the artifact
// source-controller made of its source; its digest is the artifact's, and
// Fetch downloads it through Resolver.Artifacts (package artifact), which
// checks the digest and caches the content by it. Artifact.URL then says
// where a runner elsewhere fetches the same code again.
package source
