package kube

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

// OutOfShard reads the Terraform object or Flux source of kind named
// name in namespace ns whatever its labels, and when it exists but is not
// the client's shard's, describes the labels that put it elsewhere, for
// the error of an object of the shard that names it. False when it is
// the shard's, or does not exist, or its kind is not served.
func (c *Client) OutOfShard(ctx context.Context, kind, ns, name string) (string, bool, error) {
	var gvr schema.GroupVersionResource
	switch kind {
	case v1alpha2.Kind:
		gvr = v1alpha2.GroupVersionResource
	default:
		for _, s := range sources {
			if s.Resource == sourceResource(kind) {
				gvr = s
			}
		}
		if gvr.Resource == "" {
			return "", false, nil
		}
	}
	u, err := c.dyn.Resource(gvr).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err) || apierrors.IsMethodNotSupported(err):
		return "", false, nil
	case err != nil:
		return "", false, fmt.Errorf("get %s %s/%s: %w", kind, ns, name, err)
	}
	if c.shard.Matches(u.GetLabels()) {
		return "", false, nil
	}
	return c.shard.Describe(u.GetLabels()), true, nil
}
