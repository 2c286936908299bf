//go:build kube

package main

import (
	"fmt"
	"log/slog"

	"github.com/strata-iac/strata/orchestrator/leader"
)

// elector is the leader election the flags ask for, for the command cmd
// (named in errors); nil without --leader-elect.
func (f *leaderFlags) elector(cmd string, log *slog.Logger) (*leader.Elector, error) {
	if !f.enabled {
		return nil, nil
	}
	e, err := leader.New(leader.Config{
		Kubeconfig:    f.kubeconfig,
		Namespace:     f.namespace,
		Name:          f.name,
		LeaseDuration: f.leaseDuration,
		RenewDeadline: f.renewDeadline,
		RetryPeriod:   f.retryPeriod,
		Logger:        log,
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w (give the cluster with --kubeconfig)", cmd, err)
	}
	return e, nil
}
