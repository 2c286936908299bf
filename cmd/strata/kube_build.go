//go:build kube

package main

import (
	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator/kube"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// forwardToKube does nothing in strata-kube.
func forwardToKube(*cobra.Command) error { return nil }

// kubernetesLocks reads the kubernetes backend's lock Leases: strata-kube
// has the Kubernetes client.
func kubernetesLocks() runner.KubernetesLockReader { return kube.ReadStateLock }
