package kube

import (
	"context"

	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

// OutOfShard reads the Terraform object or Flux source of kind named
// name in namespace ns whatever its labels, and when it exists but is not
// the client's shard's, describes the labels that put it elsewhere, for
// the error of an object of the shard that names it. False when it is
// the shard's, or does not exist, or its kind is not served.
func (c *Client) OutOfShard(ctx context.Context, kind, ns, name string) (string, bool, error) {
	gvr, ok := v1alpha2.GroupVersionResource, kind == v1alpha2.Kind
	if !ok {
		if gvr, ok = sourceGVR(kind); !ok {
			return "", false, nil
		}
	}
	u, ok, err := c.get(ctx, gvr, kind, ns, name)
	if !ok || err != nil || c.shard.Matches(u.GetLabels()) {
		return "", false, err
	}
	return c.shard.Describe(u.GetLabels()), true, nil
}
