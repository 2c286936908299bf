// Package cliconfig checks and merges tofu CLI configurations: the one a
// Terraform object names with spec.cliConfigSecretRef (credentials for
// HCP Terraform or a private registry, and other CLI settings) and the
// one strata writes itself (the plugin cache, the provider mirror). tofu
// reads one CLI configuration file (TF_CLI_CONFIG_FILE), in HCL 1 or its
// JSON form; Merge makes that one file of the two.
package cliconfig
