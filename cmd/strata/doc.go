// Command strata is a GitOps orchestrator for many OpenTofu stacks across
// many client environments. This package is thin CLI wiring over the
// orchestrator.
//
// Built with the tag kube it is strata-kube: the same commands, and
// cluster mode (the controller and its runner Jobs, leader election, a
// cluster's records), which strata without the tag does not link. strata
// runs strata-kube in its own place for those commands and flags
// (kube.go, kube_lean.go); strata-kube runs them itself (kube_build.go,
// and the files with the tag).
package main
