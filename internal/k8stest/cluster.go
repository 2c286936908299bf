package k8stest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// Cluster is the running test cluster.
type Cluster struct {
	// Dir is $STRATA_K8S_DIR: the cluster's binaries, certificates, logs.
	Dir string
	// Kubeconfig is the path of the admin kubeconfig.
	Kubeconfig string
	// Config and Client reach the API server as the cluster's admin.
	Config *rest.Config
	Client kubernetes.Interface
}

// Get returns the cluster that `make test-k8s` starts, or fails the test
// when STRATA_K8S_DIR is not set.
func Get(t testing.TB) *Cluster {
	t.Helper()
	dir := os.Getenv("STRATA_K8S_DIR")
	if dir == "" {
		t.Fatal("STRATA_K8S_DIR is not set: run the cluster tests with make test-k8s")
	}
	kubeconfig := filepath.Join(dir, "pki", "admin.kubeconfig")
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatalf("load kubeconfig %s: %v", kubeconfig, err)
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatalf("client for %s: %v", kubeconfig, err)
	}
	return &Cluster{Dir: dir, Kubeconfig: kubeconfig, Config: cfg, Client: cs}
}

// Namespace creates a namespace named prefix plus a random suffix and
// deletes it when the test ends.
func (c *Cluster) Namespace(t testing.TB, prefix string) string {
	t.Helper()
	ns, err := c.Client.CoreV1().Namespaces().Create(context.Background(),
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: prefix + "-"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create namespace %s-*: %v", prefix, err)
	}
	t.Cleanup(func() {
		_ = c.Client.CoreV1().Namespaces().Delete(context.Background(), ns.Name, metav1.DeleteOptions{})
	})
	return ns.Name
}

// ImportImage loads an OCI or Docker image tarball into the node's
// containerd, where the kubelet finds it without a registry.
func (c *Cluster) ImportImage(t testing.TB, tarball string) {
	t.Helper()
	if err := c.importImage(tarball); err != nil {
		t.Fatal(err)
	}
}

func (c *Cluster) importImage(tarball string) error {
	cmd := exec.Command("ctr", "-a", filepath.Join(c.Dir, "run", "containerd.sock"), "-n", "k8s.io", "images", "import", tarball)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("ctr images import %s: %v\n%s", tarball, err, out)
	}
	return nil
}
