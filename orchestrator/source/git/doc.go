// Package git fetches the code of a GitRepository that is not this
// repository, as source-controller fetches it, with Flux's own git
// library (fluxcd/pkg/git over go-git).
//
// spec.ref is honoured as source-controller honours it: commit, then
// name, tag, semver and branch (master when there is no ref). The ref is
// first pinned to a commit by listing the remote's references, so a
// commit already fetched is never cloned again: the checkout is kept in
// the cache directory under the commit, and the tree with spec.ignore and
// the .sourceignore files applied (fluxcd/pkg/sourceignore, with
// source-controller's default exclusions) under the commit and the ignore
// rules. spec.secretRef's Secret gives an SSH key (identity, known_hosts)
// or basic auth (username, password), as source-controller reads it.
package git
