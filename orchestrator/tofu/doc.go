// Package tofu runs OpenTofu for one stack's workspace.
//
// It offers a small API owned by strata: init, plan to a file, show that
// plan as JSON, apply exactly that file, and read outputs. Init and outputs
// go through hashicorp/terraform-exec. Plan and show run tofu directly, the
// way terraform-exec does (own process group, SIGINT on cancel, a grace
// period before a kill), because terraform-exec asks `tofu version -json`
// once per workspace: the version is read once per binary for the life of
// the process instead, and checked against MinVersion. A plan without
// changes (exit code 0 under -detailed-exitcode, no change in its JSON
// stream) is one tofu process.
//
// Apply outlives strata. terraform-exec gives tofu a parent-death signal,
// so a strata that dies would take an apply in flight with it, before tofu
// writes its state. Apply runs tofu in its own process group with no such
// signal, its -json stream going straight to a file in the workspace, and
// a run record (RecordFile: run number, plan file, tofu's and strata's
// process IDs and start times, then the exit status) written atomically
// before tofu starts and after it exits. A strata that finds a record
// whose strata is gone adopts the apply (Adopt): it waits for that tofu to
// exit and reads the outcome from the stream. When tofu exits, what is
// left of its process group (a provisioner's children) is killed.
//
// tofu persists state during a long apply at most every
// TF_STATE_PERSIST_INTERVAL seconds (20: its default and minimum), for the
// local backend as for remote ones, and at once when it is interrupted.
//
// It never parses tofu's human output: plans come from `show -json`,
// progress and errors from the `-json` machine-readable UI stream, outputs
// from `output -json` and the version from `version -json`. No
// terraform-exec or terraform-json type leaves this package.
//
// Plan and apply take the Tofu Controller's run options: -target,
// -parallelism, and -refresh=true on apply (spec.refreshBeforeApply).
// SelectWorkspace selects a tofu workspace other than default, creating it
// when it does not exist yet (`workspace select -or-create`).
//
// CLIConfig writes the tofu CLI configuration every workspace shares: the
// plugin cache, and the provider network mirror when there is one.
package tofu
