package kube

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"

	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

// Watch calls changed with the namespace of every Terraform object and
// Flux source of the client's shard that is added, updated or deleted in
// the given namespaces (an object relabelled out of the shard is seen
// deleted),
// until ctx ends. It lists them all once as it starts, so every namespace
// that has any is named then.
func (c *Client) Watch(ctx context.Context, namespaces []string, changed func(ns string)) error {
	for _, ns := range namespaces {
		f := dynamicinformer.NewFilteredDynamicSharedInformerFactory(c.dyn, 10*time.Minute, ns, func(o *metav1.ListOptions) {
			o.LabelSelector = c.shard.Selector()
		})
		notify := cache.ResourceEventHandlerFuncs{
			AddFunc:    func(any) { changed(ns) },
			UpdateFunc: func(any, any) { changed(ns) },
			DeleteFunc: func(any) { changed(ns) },
		}
		for _, gvr := range append([]schema.GroupVersionResource{v1alpha2.GroupVersionResource}, sources...) {
			if _, err := c.dyn.Resource(gvr).Namespace(ns).List(ctx, listOne); err != nil && gvr != v1alpha2.GroupVersionResource {
				// A source kind the cluster does not serve is not watched.
				continue
			}
			if _, err := f.ForResource(gvr).Informer().AddEventHandler(notify); err != nil {
				return err
			}
		}
		f.Start(ctx.Done())
		defer f.Shutdown()
	}
	<-ctx.Done()
	return nil
}
