// Package tofu runs OpenTofu for one stack's workspace.
//
// It wraps hashicorp/terraform-exec behind a small API owned by strata: init,
// plan to a file, show that plan as JSON, and read outputs. It never parses
// tofu's human output: plans come from `show -json`, progress and errors
// from the `-json` machine-readable UI stream, and outputs from
// `output -json`. No terraform-exec or terraform-json type leaves this
// package.
//
// Apply is the exception: terraform-exec gives tofu a parent-death signal,
// so a strata that dies would take an apply in flight with it, before tofu
// writes its state. Apply runs tofu with os/exec in its own process group,
// with no such signal, its -json stream going straight to a file in the
// workspace, and a run record (RecordFile: run number, plan file, tofu's
// and strata's process IDs and start times, then the exit status) written
// atomically before tofu starts and after it exits. A strata that finds a
// record whose strata is gone adopts the apply (Adopt): it waits for that
// tofu to exit and reads the outcome from the stream. When tofu exits,
// what is left of its process group (a provisioner's children) is killed.
//
// tofu persists state during a long apply at most every
// TF_STATE_PERSIST_INTERVAL seconds (20: its default and minimum), for the
// local backend as for remote ones, and at once when it is interrupted.
package tofu
