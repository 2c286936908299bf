// Package runjob is what a runner Job carries and what it gives back: a
// Request (one stack's run, where its code is, its settings and state
// backend), serialised as JSON, and an Outcome, short enough for a pod's
// termination message.
//
// Execute runs a Request inside the runner pod through the same
// in-process path a local run takes (orchestrator/runner): it fetches the
// stack's code from the source-controller artifact and checks its digest,
// opens the environment's stores, loads the policy (the default bundle
// and the environment's IAM allow-list), and runs the stack. The state
// goes where Request.Backend says: in the cluster, the Tofu Controller's
// default kubernetes backend (Secret tfstate-default-<secretSuffix or
// name>), since a runner pod keeps nothing.
package runjob
