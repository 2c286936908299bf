// Package change says what a pull request changes across the fleet: which
// stacks of which environments have inputs at the work tree that differ
// from those at a base revision, and why.
//
// Checkout (checkout.go) lays the repository at the base revision out in
// a temporary directory from git's objects (a detached `git worktree`,
// with no hook run), never touching the user's work tree. Discover
// (discover.go) lists every environment of a repository, in the layouts
// strata reads: each environments/<client>/<env> that holds an init.yaml,
// and each clusters/<name>. Diff (diff.go) loads every environment at both
// revisions with flux.Load and compares each stack with
// runner.Compare, which hashes and classifies its inputs as a run does;
// a stack that reads a contract whose producer changes is listed too,
// naming the producer. No tofu process runs and no registry is asked: an
// OCI source is compared as the repository writes its reference.
//
// Plan (plan.go) plans, against the real state, only the stacks a Diff
// lists, and lists the others unchanged without starting tofu for them.
package change
