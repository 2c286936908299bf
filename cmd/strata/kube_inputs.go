//go:build kube

package main

import (
	"github.com/strata-iac/strata/orchestrator/inputs"
	"github.com/strata-iac/strata/orchestrator/kube"
)

// clusterInputs reads the inputs from the cluster of a kubeconfig and
// context.
func clusterInputs(kubeconfig, kubecontext string) (inputs.Source, error) {
	return kube.NewInputs(kubeconfig, kubecontext)
}
