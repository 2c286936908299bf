package lease

import "time"

// The defaults are client-go's core clients' (kube-controller-manager's).
const (
	DefaultName          = "strata"
	DefaultLeaseDuration = 15 * time.Second
	DefaultRenewDeadline = 10 * time.Second
	DefaultRetryPeriod   = 2 * time.Second
)

// JitterFactor is client-go's leaderelection.JitterFactor: a Lease's
// renew deadline must be longer than its retry period times it.
const JitterFactor = 1.2
