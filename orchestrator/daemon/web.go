package daemon

import (
	"context"

	"github.com/strata-iac/strata/orchestrator/web"
)

// live is what the web view shows of the loop: each environment's last
// report, error and whether it runs.
func (d *Daemon) live() []web.Live {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]web.Live, 0, len(d.envs))
	for _, e := range d.envs {
		l := web.Live{Dir: e.dir, Running: e.running, Report: e.report, FinishedAt: e.finishedAt}
		if e.err != nil {
			l.Err = e.err.Error()
		}
		out = append(out, l)
	}
	return out
}

// webApprove approves a held plan sent by the web view's form, through
// Approve, as the API does.
func (d *Daemon) webApprove(ctx context.Context, a web.Approval) error {
	_, err := d.Approve(ctx, ApproveRequest{Environment: a.Environment, Stack: a.Stack, PlanID: a.PlanID, Reason: a.Reason, By: a.By})
	return err
}

// changed tells the web view's open pages that a reconcile started or
// ended.
func (d *Daemon) changed() {
	if d.web != nil {
		d.web.Changed()
	}
}
