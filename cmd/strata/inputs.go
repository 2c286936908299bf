package main

import (
	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator/flux"
	"github.com/strata-iac/strata/orchestrator/inputs"
)

// clusterInputFlags are --kubeconfig and --context of the commands that
// load an environment and keep no records in a cluster (validate, graph,
// plan, apply): the cluster each ConfigMap and Secret that the repository
// names but does not hold is read from, one get at a time, never written.
// Reading a cluster is strata-kube's: strata runs the command there.
func (g *globals) registerClusterInputs(cmd *cobra.Command) {
	cmd.Flags().StringVar(&g.inputsKubeconfig, "kubeconfig", "",
		"read the ConfigMaps and Secrets the repository names but does not hold from the cluster of this kubeconfig file (a get of each, nothing written; runs in strata-kube)")
	cmd.Flags().StringVar(&g.inputsContext, "context", "", "the kubeconfig context of --kubeconfig (default: its current context; with no --kubeconfig, of $KUBECONFIG or ~/.kube/config)")
	markKubeOnly(cmd, "kubeconfig", "context")
}

// loadOptions are the environment's load options of the command line:
// --self-source, --strict-substitution, --feature-gates, and the inputs of --inputs, then of the cluster
// of --kubeconfig or --context.
func (g *globals) loadOptions(cmd *cobra.Command) (flux.Options, error) {
	opts := flux.Options{StrictSubstitution: g.strictSubstitution, SelfSources: g.selfSources, RemoteTimeout: g.remoteTimeout}
	if err := flux.ParseFeatureGates(&opts, g.featureGates); err != nil {
		return opts, usageError("--feature-gates: %v", err)
	}
	var chain inputs.Chain
	if len(g.inputs) > 0 {
		files, err := inputs.ReadFiles(cmd.Context(), g.inputs)
		if err != nil {
			return opts, usageError("--inputs: %v", err)
		}
		chain = append(chain, files)
	}
	if g.inputsKubeconfig != "" || g.inputsContext != "" {
		in, err := clusterInputs(g.inputsKubeconfig, g.inputsContext)
		if err != nil {
			return opts, usageError("--kubeconfig: %v", err)
		}
		chain = append(chain, in)
	}
	if len(chain) > 0 {
		opts.Inputs = chain
	}
	return opts, nil
}
