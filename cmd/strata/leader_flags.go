package main

import (
	"os"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/strata-iac/strata/orchestrator/leader/lease"
)

// leaderFlags are the leader election flags of strata reconcile.
type leaderFlags struct {
	enabled                                   bool
	kubeconfig, namespace, name               string
	leaseDuration, renewDeadline, retryPeriod time.Duration
}

func (f *leaderFlags) register(cmd *cobra.Command) { f.registerDefault(cmd, false) }

// registerDefault registers the flags, --leader-elect on or off by
// default.
func (f *leaderFlags) registerDefault(cmd *cobra.Command, elect bool) {
	fl := cmd.Flags()
	fl.BoolVar(&f.enabled, "leader-elect", elect, "run passes only while this process holds a Kubernetes Lease, so that replicas on one state directory never run together")
	markKubeOnly(cmd, "leader-elect")
	fl.StringVar(&f.kubeconfig, "kubeconfig", os.Getenv("KUBECONFIG"), "kubeconfig file of the cluster that holds the Lease (default: $KUBECONFIG, else the in-cluster configuration)")
	fl.StringVar(&f.namespace, "leader-elect-namespace", "", "namespace of the Lease (default: the kubeconfig context's, else the pod's, else default)")
	fl.StringVar(&f.name, "leader-elect-name", lease.DefaultName, "name of the Lease")
	fl.DurationVar(&f.leaseDuration, "leader-elect-lease-duration", lease.DefaultLeaseDuration, "how long followers wait after the leader's last renewal before they take the Lease over")
	fl.DurationVar(&f.renewDeadline, "leader-elect-renew-deadline", lease.DefaultRenewDeadline, "how long the leader tries to renew the Lease before it stops leading")
	fl.DurationVar(&f.retryPeriod, "leader-elect-retry-period", lease.DefaultRetryPeriod, "wait between two tries to take or renew the Lease")
}

// check refuses flag values out of range, and election flags without
// --leader-elect: a usage error naming the flag.
func (f *leaderFlags) check(cmd *cobra.Command) error {
	if !f.enabled {
		for _, name := range []string{"leader-elect-namespace", "leader-elect-name", "leader-elect-lease-duration", "leader-elect-renew-deadline", "leader-elect-retry-period"} {
			if cmd.Flags().Changed(name) {
				return usageError("--%s is set without --leader-elect: add --leader-elect, or leave it out", name)
			}
		}
		return nil
	}
	if f.namespace != "" {
		if errs := validation.IsDNS1123Label(f.namespace); len(errs) > 0 {
			return usageError("--leader-elect-namespace %q is not a namespace name: %s", f.namespace, errs[0])
		}
	}
	if errs := validation.IsDNS1123Subdomain(f.name); len(errs) > 0 {
		return usageError("--leader-elect-name %q is not a Lease name: %s", f.name, errs[0])
	}
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{{"--leader-elect-lease-duration", f.leaseDuration}, {"--leader-elect-renew-deadline", f.renewDeadline}, {"--leader-elect-retry-period", f.retryPeriod}} {
		if d.v <= 0 {
			return usageError("%s is %s: it must be more than 0", d.flag, d.v)
		}
	}
	if f.leaseDuration <= f.renewDeadline {
		return usageError("--leader-elect-lease-duration %s must be longer than --leader-elect-renew-deadline %s, so that a leader stops before another takes over", f.leaseDuration, f.renewDeadline)
	}
	if min := time.Duration(lease.JitterFactor * float64(f.retryPeriod)); f.renewDeadline <= min {
		return usageError("--leader-elect-renew-deadline %s must be longer than %s (%.1f × --leader-elect-retry-period %s), so that the leader tries to renew more than once", f.renewDeadline, min, lease.JitterFactor, f.retryPeriod)
	}
	return nil
}
