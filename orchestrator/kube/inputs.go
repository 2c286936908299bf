package kube

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/strata-iac/strata/internal/deadline"
)

// Inputs reads, for Git mode, the ConfigMaps and Secrets that a repository
// names but does not hold, one get of one object at a time, from the
// cluster a kubeconfig reaches. It never writes (package flux's
// Inputs).
type Inputs struct {
	dyn dynamic.Interface
	// where names the cluster in messages: the kubeconfig's context.
	where string
}

// NewInputs returns the inputs of the cluster of a kubeconfig file and
// context: the file's current context when context is empty, and the
// files of $KUBECONFIG (else ~/.kube/config) when kubeconfig is.
func NewInputs(kubeconfig, kubecontext string) (*Inputs, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = kubeconfig
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: kubecontext})
	raw, err := cc.RawConfig()
	if err != nil {
		return nil, fmt.Errorf("load kubeconfig %s: %w", kubeconfig, err)
	}
	cfg, err := cc.ClientConfig()
	if err != nil {
		return nil, fmt.Errorf("load kubeconfig %s: %w", kubeconfig, err)
	}
	cfg.WrapTransport = deadline.WrapKube(cfg.WrapTransport)
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("dynamic client: %w", err)
	}
	where := kubecontext
	if where == "" {
		where = raw.CurrentContext
	}
	return &Inputs{dyn: dyn, where: where}, nil
}

// resources are the kinds an input may be, by kind.
var resources = map[string]schema.GroupVersionResource{
	"ConfigMap": {Version: "v1", Resource: "configmaps"},
	"Secret":    {Version: "v1", Resource: "secrets"},
}

// Get reads one ConfigMap or Secret; nil when the cluster has none.
func (in *Inputs) Get(ctx context.Context, kind, namespace, name string) (map[string]any, string, error) {
	origin := fmt.Sprintf("cluster %s", in.where)
	gvr, ok := resources[kind]
	if !ok {
		return nil, origin, fmt.Errorf("get %s %s/%s: strata reads only ConfigMaps and Secrets", kind, namespace, name)
	}
	u, err := in.dyn.Resource(gvr).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return nil, origin, nil
	case err != nil:
		return nil, origin, fmt.Errorf("get %s %s/%s from %s: %w", kind, namespace, name, origin, err)
	}
	obj := u.Object
	// What the cluster adds is not the object's: the loader reads data.
	if md, ok := obj["metadata"].(map[string]any); ok {
		delete(md, "managedFields")
	}
	return obj, origin, nil
}

// Identity is empty: what a cluster holds changes without strata seeing
// it, so an environment that reads it is rendered anew every time.
func (in *Inputs) Identity() string { return "" }
