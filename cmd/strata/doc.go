// Command strata is a GitOps orchestrator for many OpenTofu stacks across
// many client environments. This package is thin CLI wiring over the
// orchestrator.
package main
