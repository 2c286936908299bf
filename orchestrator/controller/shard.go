package controller

import (
	"context"
	"slices"

	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

// shardRefs finds, for the errors of the objects that name them, the
// sources (spec.sourceRef) and Terraform objects (spec.dependsOn) that are
// not among the namespace's objects this controller reads because another
// shard reconciles them. A reference that resolves costs nothing; one that
// does not costs one read of the object it names.
func (c *Controller) shardRefs(ctx context.Context, p *pass) error {
	have := map[string]bool{}
	for _, o := range slices.Concat(p.all, p.sources) {
		md, _ := o["metadata"].(map[string]any)
		ns, _ := md["namespace"].(string)
		kind, _ := o["kind"].(string)
		have[kind+"/"+ns+"/"+name(o)] = true
	}
	check := func(kind, ns, n, key string) error {
		if have[kind+"/"+ns+"/"+n] || p.outOfShard[key] != "" {
			return nil
		}
		labels, elsewhere, err := c.cfg.Cluster.OutOfShard(ctx, kind, ns, n)
		if err != nil || !elsewhere {
			return err
		}
		if p.outOfShard == nil {
			p.outOfShard = map[string]string{}
		}
		p.outOfShard[key] = labels
		return nil
	}
	for _, tf := range sortedObjects(p.tfs) {
		ref := tf.Spec.SourceRef
		key, ns := ref.Kind+"/"+ref.Name, p.ns
		if ref.Namespace != "" && ref.Namespace != p.ns {
			if !c.cfg.CrossNamespaceRefs {
				continue
			}
			key, ns = ref.Kind+"/"+ref.Namespace+"/"+ref.Name, ref.Namespace
		}
		if ref.Name != "" {
			if err := check(ref.Kind, ns, ref.Name, key); err != nil {
				return err
			}
		}
		for _, d := range tf.Spec.DependsOn {
			if err := check(v1alpha2.Kind, p.ns, d.Name, v1alpha2.Kind+"/"+d.Name); err != nil {
				return err
			}
		}
	}
	return nil
}
