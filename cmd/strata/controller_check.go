//go:build kube

package main

import (
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/strata-iac/strata/orchestrator/controller"
	"github.com/strata-iac/strata/orchestrator/kube"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/shard"
)

// newControllerCheckCommand is `strata controller check`: what strata
// controller would do otherwise than the Tofu Controller with the
// namespaces' objects, read before the swap, changing nothing.
func newControllerCheckCommand(g *globals) *cobra.Command {
	var (
		namespaces                           []string
		kubeconfig, runners, selector        string
		noDefaultPolicy, allowCrossNamespace bool
	)
	cmd := &cobra.Command{
		Use:   "check --namespace NS",
		Short: "Say, per Terraform object, what strata controller would do otherwise than the Tofu Controller: before the swap, read-only",
		Long: `check reads the Terraform objects of each namespace as strata controller would
reconcile them, and changes nothing: it writes no status, no Event, no
finalizer and no Secret, and runs no tofu. It is meant for a cluster the
Tofu Controller runs, before strata controller takes it over (see
docs/tofu-controller.md, "Taking over from the Tofu Controller").

For each object it says what would differ, an attention mark (!) on what
changes what happens to the object:
  ! it would not run: a field or reference strata refuses, a missing
    source or input (the problem and its fix);
  ! it was applied, but its state Secret (tfstate-<workspace>-<suffix>)
    is not in the namespace: strata would plan every resource as new;
  ! with --runners in-process, the state the Tofu Controller keeps in
    that Secret would not be read (strata's state directory keeps it);
  ! its state is locked (the kubernetes backend's Lease is held);
  ! its pending plan is the Tofu Controller's, which cannot carry over;
  and notes: an approvePlan that is a Tofu Controller plan id, a state
  not made yet, approvePlan: auto with strata's default policy.
An object with nothing to say is listed as such.

The exit code is 0 when no object needs attention, 1 when one does, 2 for
a wrong command line.`,
		Example: `  strata controller check --kubeconfig ~/.kube/config --namespace flux-system
  strata controller check --namespace team-a --namespace team-b -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := g.checkOutput("text", "json"); err != nil {
				return err
			}
			if err := checkNamespaces("controller check: give at least one --namespace to check", namespaces); err != nil {
				return err
			}
			if runners != runnersJobs && runners != runnersInProcess {
				return usageError("--runners is %q: it must be jobs or in-process, as strata controller will run", runners)
			}
			sh, err := shard.Parse(selector)
			if err != nil {
				return usageError("--watch-label-selector: %v: give a selector as kubectl's --selector reads one, such as 'sharding.fluxcd.io/key in (shard1)'", err)
			}
			client, err := kube.New(kubeconfig)
			if err != nil {
				return fmt.Errorf("controller check: %w", err)
			}
			stateDir, err := os.MkdirTemp("", "strata-check-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(stateDir)
			ctrl := controller.New(controller.Config{
				Cluster:            client.WithShard(sh),
				Namespaces:         namespaces,
				Logger:             g.logger(),
				Pipeline:           reconcile.Pipeline{Options: reconcile.Options{StateDir: stateDir, Logger: g.logger()}},
				CrossNamespaceRefs: allowCrossNamespace,
				Shard:              sh.String(),
			})
			opts := controller.CheckOptions{Jobs: runners == runnersJobs, NoDefaultPolicy: noDefaultPolicy}
			var all []checkedNamespace
			attention := false
			for _, ns := range namespaces {
				fs, objects, err := ctrl.CheckNamespace(cmd.Context(), ns, opts)
				if err != nil {
					return err
				}
				for _, f := range fs {
					attention = attention || f.Attention
				}
				all = append(all, checkedNamespace{Namespace: ns, Objects: objects, Findings: fs})
			}
			if g.output == "json" {
				if err := writeJSON(g.stdout, all); err != nil {
					return err
				}
			} else if err := writeCheck(g.stdout, all); err != nil {
				return err
			}
			if attention {
				return &exitError{code: exitFailed}
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&namespaces, "namespace", nil, "namespace whose Terraform objects to check (repeat for more)")
	cmd.Flags().StringVar(&kubeconfig, "kubeconfig", os.Getenv("KUBECONFIG"), "kubeconfig file of the cluster (default: $KUBECONFIG, else the in-cluster configuration)")
	cmd.Flags().StringVar(&runners, "runners", runnersJobs, "where strata controller will run tofu: jobs (the state in the kubernetes backend's Secrets, as the Tofu Controller keeps it) or in-process")
	cmd.Flags().BoolVar(&noDefaultPolicy, "no-default-policy", false, "strata controller will run with --no-default-policy")
	cmd.Flags().BoolVar(&allowCrossNamespace, "allow-cross-namespace-refs", false, "strata controller will run with --allow-cross-namespace-refs")
	cmd.Flags().StringVar(&selector, "watch-label-selector", shard.Default, "the objects strata controller will reconcile, as its flag of that name")
	return cmd
}

// checkedNamespace is what check found in one namespace.
type checkedNamespace struct {
	Namespace string               `json:"namespace"`
	Objects   []string             `json:"objects"`
	Findings  []controller.Finding `json:"findings"`
}

// writeCheck writes the findings, object by object, "!" on those that
// need attention; an object with none says so.
func writeCheck(w io.Writer, all []checkedNamespace) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, c := range all {
		need := map[string]bool{}
		for _, f := range c.Findings {
			if f.Attention {
				need[f.Object] = true
			}
		}
		fmt.Fprintf(tw, "namespace %s: %d Terraform objects, %d need attention before the swap\n", c.Namespace, len(c.Objects), len(need))
		for _, o := range c.Objects {
			said := false
			for _, f := range c.Findings {
				if f.Object != o {
					continue
				}
				mark := " "
				if f.Attention {
					mark = "!"
				}
				fmt.Fprintf(tw, "  %s\t%s %s\n", o, mark, f.Message)
				said = true
			}
			if !said {
				fmt.Fprintf(tw, "  %s\t  nothing differs\n", o)
			}
		}
	}
	return tw.Flush()
}
