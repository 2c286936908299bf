// Package controller is `strata controller`: strata's reconcile engine
// driven by the Tofu Controller's Terraform objects in a cluster instead of
// a checkout.
//
// A run of one stack is a Request, handed to an Executor, which reports
// an Outcome. Both are plain data that encode to JSON, so that a runner Job
// can carry a request to `strata runner` and report its outcome back
// (package jobs). InProcess is the executor that runs the request with
// package runner in this process: outside a cluster, inside a runner pod,
// and in tests. Whatever executes it, a run is the same code path as
// `strata apply`: the orchestrator hands it over through Options.Runs.
package controller
