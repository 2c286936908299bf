package statefile

import (
	"context"
	"fmt"
	"os"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// LockInfoAnnotation is the annotation of the kubernetes backend's Lease
// that holds the lock info, as tofu writes it.
const LockInfoAnnotation = "app.terraform.io/lock-info"

// KubernetesLeaseName is the Lease that locks the kubernetes backend's
// state of workspace: lock-tfstate-<workspace>-<secret suffix>.
func KubernetesLeaseName(workspace, suffix string) string {
	if workspace == "" {
		workspace = "default"
	}
	return "lock-tfstate-" + workspace + "-" + suffix
}

// LeaseLock is the lock a kubernetes backend's Lease records: held while
// its holderIdentity is set, its info in LockInfoAnnotation. It reports
// false when the Lease holds no lock.
func LeaseLock(holder string, annotations map[string]string) (Lock, bool, error) {
	if holder == "" {
		return Lock{}, false, nil
	}
	info, ok := annotations[LockInfoAnnotation]
	if !ok {
		// Held without its info: the ID is the holder's.
		return Lock{ID: holder, Held: true}, true, nil
	}
	l, err := ParseLock([]byte(info))
	if err != nil {
		return Lock{}, false, err
	}
	l.Held = true
	return l, true, nil
}

// ReadKubernetesLock reads the lock of the state the kubernetes backend b
// keeps for workspace: its Lease, reached as tofu reaches it (in-cluster,
// or the kubeconfig file b names, or KUBE_CONFIG_PATH). It reports false
// when there is no Lease, or no way to reach the cluster.
func ReadKubernetesLock(ctx context.Context, b KubernetesBackend, workspace string) (Lock, bool, error) {
	name := KubernetesLeaseName(workspace, b.SecretSuffix)
	cfg, ok, err := kubernetesConfig(b)
	if err != nil || !ok {
		return Lock{}, false, err
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return Lock{}, false, fmt.Errorf("read lock %s/%s: %w", b.Namespace, name, err)
	}
	lease, err := cs.CoordinationV1().Leases(b.Namespace).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return Lock{}, false, nil
	}
	if err != nil {
		return Lock{}, false, fmt.Errorf("read lock %s/%s: %w", b.Namespace, name, err)
	}
	holder := ""
	if lease.Spec.HolderIdentity != nil {
		holder = *lease.Spec.HolderIdentity
	}
	l, ok, err := LeaseLock(holder, lease.Annotations)
	if err != nil {
		return Lock{}, false, fmt.Errorf("read lock %s/%s: %w", b.Namespace, name, err)
	}
	return l, ok, nil
}

// kubernetesConfig is how tofu's kubernetes backend reaches its cluster;
// false when b gives no way.
func kubernetesConfig(b KubernetesBackend) (*rest.Config, bool, error) {
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
