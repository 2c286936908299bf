package controller

import (
	"context"

	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

// release lets go the runs an Adopter reported (runner Jobs) whose
// objects' status this pass wrote, and only those: a run whose status was
// not written (the status write failed, or the leader was lost first)
// stays adoptable, and the next pass adopts it and writes its status in
// full. A run that cannot be released is logged and left: the next pass
// adopts it again and writes the same status. The finished runs of
// objects that are gone (deleted while their leader was lost) are
// released too: no pass will record them.
func (c *Controller) release(ctx context.Context, p *pass) error {
	p.mu.Lock()
	runs, adopter := p.toRelease, p.adopter
	p.mu.Unlock()
	for _, a := range runs {
		if !p.written[a.req.Name] {
			continue
		}
		if err := a.adopter.Release(ctx, a.req, a.out); err != nil {
			c.log.Warn(err.Error(), "namespace", p.ns)
		}
	}
	if adopter != nil {
		if err := adopter.ReleaseOrphans(ctx, p.ns, func(ctx context.Context, object string) (bool, error) { return c.gone(ctx, p, object) }); err != nil {
			c.log.Warn(err.Error(), "namespace", p.ns)
		}
	}
	return nil
}

// gone reports whether a Terraform object is gone from the namespace: not
// among the pass's objects, nor another shard's (an object moved to
// another shard has its runs adopted there).
func (c *Controller) gone(ctx context.Context, p *pass, object string) (bool, error) {
	if p.tfs[object] != nil {
		return false, nil
	}
	_, elsewhere, err := c.cfg.Cluster.OutOfShard(ctx, v1alpha2.Kind, p.ns, object)
	return err == nil && !elsewhere, err
}
