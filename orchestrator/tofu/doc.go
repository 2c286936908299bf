// Package tofu runs OpenTofu for one stack's workspace.
//
// It offers a small API owned by strata: init, plan to a file, show that
// plan as JSON, apply exactly that file, and read outputs. Init, apply and
// outputs go through hashicorp/terraform-exec. Plan and show run tofu
// directly, the way terraform-exec does (own process group, SIGINT on
// cancel, a grace period before a kill), because terraform-exec asks
// `tofu version -json` once per workspace: the version is read once per
// binary for the life of the process instead, and checked against
// MinVersion. A plan without changes (exit code 0 under
// -detailed-exitcode, no change in its JSON stream) is one tofu process.
//
// It never parses tofu's human output: plans come from `show -json`,
// progress and errors from the `-json` machine-readable UI stream, outputs
// from `output -json` and the version from `version -json`. No
// terraform-exec or terraform-json type leaves this package.
//
// CLIConfig writes the tofu CLI configuration every workspace shares: the
// plugin cache, and the provider network mirror when there is one.
package tofu
