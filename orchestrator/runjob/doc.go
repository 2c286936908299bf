// Package runjob is what a runner Job carries and what it gives back: a
// Request (the controller's request for one stack's run, where the stack
// sits in its artifact, the environment's settings and the state
// backend), serialised as JSON, and the run's controller.Outcome, with a
// Summary short enough for a pod's termination message.
//
// Execute runs a Request inside the runner pod through the controller's
// in-process executor, the path a local run takes (orchestrator/runner):
// it opens the environment's stores, fetches the stack's code from the
// artifact's URL with source/artifact (the fetcher the controller uses),
// or, for a KeptURL (a destroy whose source is gone), from the records,
// and checks its digest, loads the policy (the default
// bundle and the environment's IAM allow-list), and runs the stack. The
// state goes where Request.Backend says: in the cluster, the Tofu
// Controller's default kubernetes backend (Secret
// tfstate-default-<secretSuffix or name>), since a runner pod keeps
// nothing.
package runjob
