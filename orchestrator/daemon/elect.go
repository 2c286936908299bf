package daemon

import (
	"context"
	"fmt"
)

// Elector decides which of several processes on one state directory runs
// passes (package leader implements it with a Kubernetes Lease).
type Elector interface {
	// Lead calls lead once this process leads, with a context that ends
	// when it stops leading or ctx ends, and returns once lead returned:
	// nil when ctx ended, an error when leadership was lost.
	Lead(ctx context.Context, lead func(context.Context)) error
	// Leader reports whether this process leads, and the identity of the
	// leader it last saw ("" when none yet).
	Leader() (leading bool, identity string)
}

// loop runs the reconcile loop until ctx is done: at once without an
// Elector, else only while this process leads. Losing the lead stops the
// loop as a signal would (the running reconcile's tofu is interrupted
// gracefully and its runs recorded), and is returned as an error.
func (d *Daemon) loop(ctx context.Context) error {
	if d.cfg.Elector == nil {
		return d.Run(ctx)
	}
	return d.cfg.Elector.Lead(ctx, func(ctx context.Context) {
		// Run returns nil: stopping is not an error.
		_ = d.Run(ctx)
	})
}

// notLeader is the readiness reason of a process that does not lead, or
// "" when it leads or there is no election.
func (d *Daemon) notLeader() string {
	if d.cfg.Elector == nil {
		return ""
	}
	leading, leader := d.cfg.Elector.Leader()
	if leading {
		return ""
	}
	if leader == "" {
		leader = "none yet"
	}
	return fmt.Sprintf("not the leader (leader: %s)", leader)
}
