// Package artifact fetches the artifacts source-controller serves: a
// tarball of a source's content at status.artifact.url, whose sha256 is
// status.artifact.digest. As the Tofu Controller does, the tarball is
// downloaded, its digest checked before anything is used, and its content
// kept in a cache by digest (<cache>/sha256/<hex>), so an artifact is
// never downloaded twice; an entry appears whole, by rename, or not at all.
// A KeptURL names instead the code a stack last ran, which strata keeps in
// its records (Fetcher.Kept) for a destroy whose source is gone.
package artifact
