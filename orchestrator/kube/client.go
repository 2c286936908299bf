package kube

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/strata-iac/strata/internal/deadline"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/shard"
	"github.com/strata-iac/strata/orchestrator/statefile"
)

// The Flux sources a Terraform object may name, at source-controller's
// served version.
var sources = []schema.GroupVersionResource{
	{Group: "source.toolkit.fluxcd.io", Version: "v1", Resource: "gitrepositories"},
	{Group: "source.toolkit.fluxcd.io", Version: "v1", Resource: "ocirepositories"},
	{Group: "source.toolkit.fluxcd.io", Version: "v1", Resource: "buckets"},
}

// Client reaches one cluster.
type Client struct {
	dyn  dynamic.Interface
	core kubernetes.Interface
	// component names the writer of Events.
	component string
	// shard selects the Terraform objects and Flux sources this client
	// reads (every one when zero).
	shard shard.Shard
}

// WithShard returns a client that reads only the shard's Terraform objects
// and Flux sources: its lists and watches ask the API server for the
// shard's selector, and a source read by name that is not the shard's is
// not found, as Flux's sharded controllers see it. ConfigMaps and Secrets
// are read whatever their labels: they are inputs, not reconciled.
func (c *Client) WithShard(s shard.Shard) *Client {
	out := *c
	out.shard = s
	return &out
}

// shardList is the list options of a shard's objects.
func (c *Client) shardList() metav1.ListOptions {
	return metav1.ListOptions{LabelSelector: c.shard.Selector()}
}

// Config returns the REST configuration of a kubeconfig file, or the
// in-cluster one when the path is empty.
func Config(kubeconfig string) (*rest.Config, error) {
	if kubeconfig == "" {
		cfg, err := rest.InClusterConfig()
		if err != nil {
			return nil, fmt.Errorf("in-cluster configuration: %w (outside a cluster, give --kubeconfig)", err)
		}
		return cfg, nil
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("load kubeconfig %s: %w", kubeconfig, err)
	}
	return cfg, nil
}

// New returns a client of the cluster of a kubeconfig file (in-cluster
// when empty).
func New(kubeconfig string) (*Client, error) {
	cfg, err := Config(kubeconfig)
	if err != nil {
		return nil, err
	}
	return NewForConfig(cfg)
}

// NewForConfig returns a client of the cluster cfg reaches.
//
// Each request waits deadline.Kube() (--kube-timeout) at most for its
// answer to start; a watch then flows as long as it does.
func NewForConfig(cfg *rest.Config) (*Client, error) {
	cfg = rest.CopyConfig(cfg)
	cfg.WrapTransport = deadline.WrapKube(cfg.WrapTransport)
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("dynamic client: %w", err)
	}
	core, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("client: %w", err)
	}
	return &Client{dyn: dyn, core: core, component: "strata-controller"}, nil
}

// Terraforms lists the Terraform objects of a namespace.
func (c *Client) Terraforms(ctx context.Context, ns string) ([]v1alpha2.Terraform, error) {
	list, err := c.dyn.Resource(v1alpha2.GroupVersionResource).Namespace(ns).List(ctx, c.shardList())
	if err != nil {
		return nil, fmt.Errorf("list terraforms in %s: %w", ns, err)
	}
	out := make([]v1alpha2.Terraform, 0, len(list.Items))
	for _, u := range list.Items {
		var tf v1alpha2.Terraform
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &tf); err != nil {
			return nil, fmt.Errorf("decode Terraform %s/%s: %w", ns, u.GetName(), err)
		}
		out = append(out, tf)
	}
	return out, nil
}

// Objects returns what the environment of a namespace is built from: its
// Terraform objects and Flux sources (the shard's), ConfigMaps and
// Secrets, as JSON-like maps. A source kind the cluster does not serve is
// left out.
func (c *Client) Objects(ctx context.Context, ns string) ([]map[string]any, error) {
	var out []map[string]any
	add := func(gvr schema.GroupVersionResource, optional bool) error {
		opts := c.shardList()
		if gvr.Group == "" {
			opts = metav1.ListOptions{}
		}
		list, err := c.dyn.Resource(gvr).Namespace(ns).List(ctx, opts)
		if err != nil {
			if optional && (apierrors.IsNotFound(err) || apierrors.IsMethodNotSupported(err)) {
				return nil
			}
			return fmt.Errorf("list %s in %s: %w", gvr.Resource, ns, err)
		}
		for _, u := range list.Items {
			out = append(out, u.Object)
		}
		return nil
	}
	if err := add(v1alpha2.GroupVersionResource, false); err != nil {
		return nil, err
	}
	for _, gvr := range sources {
		if err := add(gvr, true); err != nil {
			return nil, err
		}
	}
	for _, gvr := range []schema.GroupVersionResource{{Version: "v1", Resource: "configmaps"}, {Version: "v1", Resource: "secrets"}} {
		if err := add(gvr, false); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Source returns the Flux source of kind (GitRepository, OCIRepository
// or Bucket) named name in namespace ns, as a JSON-like map; false when
// there is none, the cluster does not serve its kind, or it is not the
// client's shard's.
func (c *Client) Source(ctx context.Context, kind, ns, name string) (map[string]any, bool, error) {
	gvr, ok := sourceGVR(kind)
	if !ok {
		return nil, false, nil
	}
	u, ok, err := c.get(ctx, gvr, kind, ns, name)
	if !ok || err != nil || !c.shard.Matches(u.GetLabels()) {
		return nil, false, err
	}
	return u.Object, true, nil
}

// sourceGVR is the resource of a Flux source kind; false for any other
// kind.
func sourceGVR(kind string) (schema.GroupVersionResource, bool) {
	for _, gvr := range sources {
		if gvr.Resource == sourceResource(kind) {
			return gvr, true
		}
	}
	return schema.GroupVersionResource{}, false
}

// get reads the object of kind named name in namespace ns, whatever its
// labels; false when there is none, or the cluster does not serve its
// kind.
func (c *Client) get(ctx context.Context, gvr schema.GroupVersionResource, kind, ns, name string) (*unstructured.Unstructured, bool, error) {
	u, err := c.dyn.Resource(gvr).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err) || apierrors.IsMethodNotSupported(err):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("get %s %s/%s: %w", kind, ns, name, err)
	}
	return u, true, nil
}

// sourceResource is the resource of a source kind: GitRepository is
// gitrepositories.
func sourceResource(kind string) string {
	k := strings.ToLower(kind)
	if strings.HasSuffix(k, "y") {
		return strings.TrimSuffix(k, "y") + "ies"
	}
	return k + "s"
}

// UpdateStatus writes a Terraform object's status.
func (c *Client) UpdateStatus(ctx context.Context, tf *v1alpha2.Terraform) error {
	u, err := toUnstructured(tf)
	if err != nil {
		return err
	}
	got, err := c.dyn.Resource(v1alpha2.GroupVersionResource).Namespace(tf.Namespace).UpdateStatus(ctx, u, metav1.UpdateOptions{})
	if err != nil {
		return fmt.Errorf("update status of Terraform %s/%s: %w", tf.Namespace, tf.Name, err)
	}
	tf.ResourceVersion = got.GetResourceVersion()
	return nil
}

// SetFinalizers writes a Terraform object's finalizers.
func (c *Client) SetFinalizers(ctx context.Context, tf *v1alpha2.Terraform, finalizers []string) error {
	u, err := c.dyn.Resource(v1alpha2.GroupVersionResource).Namespace(tf.Namespace).Get(ctx, tf.Name, metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("get Terraform %s/%s: %w", tf.Namespace, tf.Name, err)
	}
	u.SetFinalizers(finalizers)
	got, err := c.dyn.Resource(v1alpha2.GroupVersionResource).Namespace(tf.Namespace).Update(ctx, u, metav1.UpdateOptions{})
	if err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("set finalizers of Terraform %s/%s: %w", tf.Namespace, tf.Name, err)
	}
	tf.Finalizers, tf.ResourceVersion = finalizers, got.GetResourceVersion()
	return nil
}

// WriteSecret creates or updates the Secret ns/name with exactly data,
// labels and annotations, owned (as its controller) by the Terraform
// object. It reports whether anything changed.
func (c *Client) WriteSecret(ctx context.Context, owner *v1alpha2.Terraform, name string, labels, annotations map[string]string, data map[string][]byte) (bool, error) {
	secrets := c.core.CoreV1().Secrets(owner.Namespace)
	want := corev1.Secret{
		ObjectMeta: ownedBy(owner, name, labels, annotations),
		Type:       corev1.SecretTypeOpaque,
		Data:       data,
	}
	have, err := secrets.Get(ctx, name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		if _, err := secrets.Create(ctx, &want, metav1.CreateOptions{}); err != nil {
			return false, fmt.Errorf("create Secret %s/%s: %w", owner.Namespace, name, err)
		}
		return true, nil
	case err != nil:
		return false, fmt.Errorf("get Secret %s/%s: %w", owner.Namespace, name, err)
	}
	owned := ownRefs(&have.ObjectMeta, owner)
	if owned && equalBytes(have.Data, data) && maps.Equal(have.Labels, labels) && (len(annotations) == 0 || maps.Equal(have.Annotations, annotations)) {
		return false, nil
	}
	have.Data, have.Labels = data, labels
	if len(annotations) > 0 {
		have.Annotations = annotations
	}
	if _, err := secrets.Update(ctx, have, metav1.UpdateOptions{}); err != nil {
		return false, fmt.Errorf("update Secret %s/%s: %w", owner.Namespace, name, err)
	}
	return true, nil
}

// ownedBy is the metadata of an object name of owner's namespace, with
// labels and annotations, owned by owner as its controller: what
// WriteSecret and WriteConfigMap write.
func ownedBy(owner *v1alpha2.Terraform, name string, labels, annotations map[string]string) metav1.ObjectMeta {
	yes := true
	return metav1.ObjectMeta{
		Name: name, Namespace: owner.Namespace, Labels: labels, Annotations: annotations,
		OwnerReferences: []metav1.OwnerReference{{
			APIVersion: v1alpha2.GroupVersion.String(), Kind: v1alpha2.Kind,
			Name: owner.Name, UID: owner.UID, Controller: &yes,
		}},
	}
}

// ownRefs makes the owner the controller of an object found in place (one
// another writer made: the Tofu Controller, a person, strata before the
// object was re-created): a controller reference to a Terraform object of
// another UID is replaced, and one is added where there is none. It
// reports whether the references were already so.
func ownRefs(meta *metav1.ObjectMeta, owner *v1alpha2.Terraform) bool {
	if owner.UID == "" {
		return true
	}
	want := ownedBy(owner, meta.Name, nil, nil).OwnerReferences[0]
	refs := make([]metav1.OwnerReference, 0, len(meta.OwnerReferences)+1)
	for _, r := range meta.OwnerReferences {
		switch {
		case r.UID == owner.UID && r.Controller != nil && *r.Controller:
			return true
		case r.UID == owner.UID, r.Kind == v1alpha2.Kind && r.Controller != nil && *r.Controller:
			// Ours without the controller mark, or a Terraform object's
			// of another UID: want takes its place.
		default:
			if r.Controller != nil && *r.Controller {
				// Another kind controls it: ours is an owner beside it.
				want.Controller = nil
			}
			refs = append(refs, r)
		}
	}
	meta.OwnerReferences = append(refs, want)
	return false
}

// WriteConfigMap creates or updates a ConfigMap owned by the object, its
// data text, and reports whether it changed.
func (c *Client) WriteConfigMap(ctx context.Context, owner *v1alpha2.Terraform, name string, labels, annotations map[string]string, data map[string]string) (bool, error) {
	cms := c.core.CoreV1().ConfigMaps(owner.Namespace)
	want := corev1.ConfigMap{ObjectMeta: ownedBy(owner, name, labels, annotations), Data: data}
	have, err := cms.Get(ctx, name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		if _, err := cms.Create(ctx, &want, metav1.CreateOptions{}); err != nil {
			return false, fmt.Errorf("create ConfigMap %s/%s: %w", owner.Namespace, name, err)
		}
		return true, nil
	case err != nil:
		return false, fmt.Errorf("get ConfigMap %s/%s: %w", owner.Namespace, name, err)
	}
	owned := ownRefs(&have.ObjectMeta, owner)
	if owned && maps.Equal(have.Data, data) && maps.Equal(have.Labels, labels) && maps.Equal(have.Annotations, annotations) {
		return false, nil
	}
	have.Data, have.Labels, have.Annotations = data, labels, annotations
	if _, err := cms.Update(ctx, have, metav1.UpdateOptions{}); err != nil {
		return false, fmt.Errorf("update ConfigMap %s/%s: %w", owner.Namespace, name, err)
	}
	return true, nil
}

// DeleteConfigMap deletes the ConfigMap ns/name; one already gone is
// deleted.
func (c *Client) DeleteConfigMap(ctx context.Context, ns, name string) error {
	err := c.core.CoreV1().ConfigMaps(ns).Delete(ctx, name, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete ConfigMap %s/%s: %w", ns, name, err)
	}
	return nil
}

// DeleteSecret deletes the Secret ns/name; one already gone is deleted.
func (c *Client) DeleteSecret(ctx context.Context, ns, name string) error {
	err := c.core.CoreV1().Secrets(ns).Delete(ctx, name, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete Secret %s/%s: %w", ns, name, err)
	}
	return nil
}

func equalBytes(a, b map[string][]byte) bool {
	return maps.EqualFunc(a, b, func(x, y []byte) bool { return string(x) == string(y) })
}

// Event records a Kubernetes Event about a Terraform object: typ is
// Normal or Warning, reason one of the Tofu Controller's.
func (c *Client) Event(ctx context.Context, tf *v1alpha2.Terraform, typ, reason, message string) error {
	now := metav1.NewTime(time.Now())
	ev := &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{GenerateName: tf.Name + ".", Namespace: tf.Namespace},
		InvolvedObject: corev1.ObjectReference{
			APIVersion: v1alpha2.GroupVersion.String(), Kind: v1alpha2.Kind,
			Name: tf.Name, Namespace: tf.Namespace, UID: tf.UID, ResourceVersion: tf.ResourceVersion,
		},
		Type: typ, Reason: reason, Message: message,
		Source:         corev1.EventSource{Component: c.component},
		FirstTimestamp: now, LastTimestamp: now, Count: 1,
	}
	if _, err := c.core.CoreV1().Events(tf.Namespace).Create(ctx, ev, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("record event %s of Terraform %s/%s: %w", reason, tf.Namespace, tf.Name, err)
	}
	return nil
}

func toUnstructured(tf *v1alpha2.Terraform) (*unstructured.Unstructured, error) {
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(tf)
	if err != nil {
		return nil, fmt.Errorf("encode Terraform %s/%s: %w", tf.Namespace, tf.Name, err)
	}
	u := &unstructured.Unstructured{Object: m}
	u.SetAPIVersion(v1alpha2.GroupVersion.String())
	u.SetKind(v1alpha2.Kind)
	return u, nil
}

// listOne asks for one item: enough to know a resource is served.
var listOne = metav1.ListOptions{Limit: 1}

// StateLock reads the lock that the kubernetes backend's Lease ns/name
// records (statefile.LeaseLock); false when there is no such Lease, or it
// holds no lock.
func (c *Client) StateLock(ctx context.Context, ns, name string) (statefile.Lock, bool, error) {
	return leaseLock(ctx, c.core, ns, name)
}
