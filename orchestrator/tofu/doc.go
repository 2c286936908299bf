// Package tofu runs OpenTofu for one stack's workspace.
//
// It wraps hashicorp/terraform-exec behind a small API owned by strata: init,
// plan to a file, show that plan as JSON, apply exactly that file, and read
// outputs. It never parses tofu's human output: plans come from
// `show -json`, progress and errors from the `-json` machine-readable UI
// stream, and outputs from `output -json`. No terraform-exec or
// terraform-json type leaves this package. CLIConfig writes the tofu CLI
// configuration every workspace shares: the plugin cache, and the provider
// network mirror when there is one.
package tofu
