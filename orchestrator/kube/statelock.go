package kube

import (
	"context"
	"fmt"
	"os"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/strata-iac/strata/orchestrator/statefile"
)

// ReadStateLock reads the lock of the state the kubernetes backend b
// keeps for workspace: its Lease, reached as tofu reaches it (in-cluster,
// or the kubeconfig file b names, or KUBE_CONFIG_PATH). It reports false
// when there is no Lease, or no way to reach the cluster. It is the
// runner's KubernetesLocks in strata-kube.
func ReadStateLock(ctx context.Context, b statefile.KubernetesBackend, workspace string) (statefile.Lock, bool, error) {
	name := statefile.KubernetesLeaseName(workspace, b.SecretSuffix)
	cfg, ok, err := backendConfig(b)
	if err != nil || !ok {
		return statefile.Lock{}, false, err
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return statefile.Lock{}, false, fmt.Errorf("read lock %s/%s: %w", b.Namespace, name, err)
	}
	return leaseLock(ctx, cs, b.Namespace, name)
}

// leaseLock reads the Lease ns/name and the lock it records: held while
// its holderIdentity is set (statefile.LeaseLock); false when there is no
// such Lease, or it holds no lock.
func leaseLock(ctx context.Context, cs kubernetes.Interface, ns, name string) (statefile.Lock, bool, error) {
	lease, err := cs.CoordinationV1().Leases(ns).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return statefile.Lock{}, false, nil
	}
	if err != nil {
		return statefile.Lock{}, false, fmt.Errorf("read lock %s/%s: %w", ns, name, err)
	}
	holder := ""
	if lease.Spec.HolderIdentity != nil {
		holder = *lease.Spec.HolderIdentity
	}
	l, ok, err := statefile.LeaseLock(holder, lease.Annotations)
	if err != nil {
		return statefile.Lock{}, false, fmt.Errorf("read lock %s/%s: %w", ns, name, err)
	}
	return l, ok, nil
}

// backendConfig is how tofu's kubernetes backend reaches its cluster;
// false when b gives no way.
func backendConfig(b statefile.KubernetesBackend) (*rest.Config, bool, error) {
	if b.InClusterConfig {
		cfg, err := rest.InClusterConfig()
		if err != nil {
			return nil, false, fmt.Errorf("read lock of the kubernetes backend: in-cluster config: %w", err)
		}
		return cfg, true, nil
	}
	path := b.ConfigPath
	if path == "" {
		path = os.Getenv("KUBE_CONFIG_PATH")
	}
	if path == "" {
		return nil, false, nil
	}
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(
		&clientcmd.ClientConfigLoadingRules{ExplicitPath: path},
		&clientcmd.ConfigOverrides{CurrentContext: b.ConfigContext},
	).ClientConfig()
	if err != nil {
		return nil, false, fmt.Errorf("read lock of the kubernetes backend: kubeconfig %s: %w", path, err)
	}
	return cfg, true, nil
}
