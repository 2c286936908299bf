package leader

import (
	"github.com/strata-iac/strata/orchestrator/leader/lease"

	"fmt"
	"log/slog"
	"os"
	"time"
)

// The defaults are package lease's, which the command line shares.
const (
	DefaultName          = lease.DefaultName
	DefaultLeaseDuration = lease.DefaultLeaseDuration
	DefaultRenewDeadline = lease.DefaultRenewDeadline
	DefaultRetryPeriod   = lease.DefaultRetryPeriod
)

// Config names the Lease and how it is held.
type Config struct {
	// Kubeconfig is the kubeconfig file; empty, the in-cluster
	// configuration is used.
	Kubeconfig string
	// Namespace and Name name the Lease. An empty Namespace is the
	// kubeconfig context's, else the pod's, else "default"; an empty Name
	// is DefaultName.
	Namespace, Name string
	// Identity names this process in the Lease (Identity() when empty).
	Identity string
	// LeaseDuration is how long followers wait, after the last renewal
	// they saw, before they take the Lease over; RenewDeadline how long the
	// leader retries renewing before it stops leading; RetryPeriod the
	// wait between two tries. LeaseDuration > RenewDeadline >
	// 1.2 × RetryPeriod > 0 (the defaults when zero).
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration
	// Logger receives the election's lines.
	Logger *slog.Logger
}

// Identity is this process's identity: its hostname and process id, as
// "host_1234".
func Identity() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	return fmt.Sprintf("%s_%d", host, os.Getpid())
}

// withDefaults fills the zero fields.
func (c Config) withDefaults() Config {
	if c.Name == "" {
		c.Name = DefaultName
	}
	if c.Identity == "" {
		c.Identity = Identity()
	}
	if c.LeaseDuration == 0 {
		c.LeaseDuration = DefaultLeaseDuration
	}
	if c.RenewDeadline == 0 {
		c.RenewDeadline = DefaultRenewDeadline
	}
	if c.RetryPeriod == 0 {
		c.RetryPeriod = DefaultRetryPeriod
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}
