//go:build kube

package main

import "github.com/spf13/cobra"

// forwardToKube does nothing in strata-kube.
func forwardToKube(*cobra.Command) error { return nil }
