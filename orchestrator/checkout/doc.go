// Package checkout says which files of a checkout are in the artifact
// source-controller packs for a GitRepository of it: not those its
// default exclusions, the .sourceignore files or the GitRepository's
// spec.ignore name, nor those git ignores and that are not committed.
// The renderer reads the repository through these rules, and the stacks
// whose code is the checkout are hashed and laid out with them, so that
// strata sees what Flux's controllers see.
package checkout
