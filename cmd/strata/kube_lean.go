//go:build !kube

package main

import (
	"fmt"
	"log/slog"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator/daemon"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/inputs"
	"github.com/strata-iac/strata/orchestrator/runner"
)

// kubeCommand is a command only strata-kube has: strata runs it there,
// arguments and --help included.
func kubeCommand(use, short string) *cobra.Command {
	return &cobra.Command{
		Use:                use,
		Short:              short,
		Long:               short + ".\n\nstrata runs it in strata-kube, installed beside it (see docs/installing.md).",
		DisableFlagParsing: true,
		RunE: func(*cobra.Command, []string) error {
			return runInKube("strata " + use)
		},
	}
}

func newControllerCommand(*globals) *cobra.Command { return kubeCommand("controller", controllerShort) }

func newRunnerCommand(*globals) *cobra.Command { return kubeCommand("runner", runnerShort) }

// forwardToKube runs the command in strata-kube when one of its
// strata-kube flags is set: before it does anything, as the root's
// PersistentPreRunE.
func forwardToKube(cmd *cobra.Command) error {
	if set := kubeFlags(cmd); len(set) > 0 {
		if err := checksBeforeKube(cmd); err != nil {
			return err
		}
		return runInKube(fmt.Sprintf("strata %s %s", cmd.Name(), strings.Join(set, " ")))
	}
	return nil
}

// elector is never reached with --leader-elect: strata-kube runs the
// command (forwardToKube).
func (f *leaderFlags) elector(cmd string, _ *slog.Logger) (daemon.Elector, error) {
	if !f.enabled {
		return nil, nil
	}
	return nil, fmt.Errorf("%s: --leader-elect is strata-kube's, and strata-kube did not run the command", cmd)
}

// clusterRecords is never reached with --kubeconfig or --namespace:
// strata-kube runs the command (forwardToKube).
func (f *recordsFlags) clusterRecords(string) (envstores.Records, error) {
	return nil, fmt.Errorf("a cluster's records are strata-kube's, and strata-kube did not run the command")
}

// clusterInputs is never reached with --kubeconfig or --context of the
// inputs: strata-kube runs the command (forwardToKube).
func clusterInputs(string, string) (inputs.Source, error) {
	return nil, fmt.Errorf("reading inputs from a cluster is strata-kube's, and strata-kube did not run the command")
}

// kubernetesLocks is nil in strata, which links no Kubernetes client: the
// kubernetes backend's lock is not read (strata-kube reads it).
func kubernetesLocks() runner.KubernetesLockReader { return nil }
