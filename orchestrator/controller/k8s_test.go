//go:build k8s

package controller_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensions "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/internal/k8stest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/controller"
	"github.com/strata-iac/strata/orchestrator/kube"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/source/oci"
	"github.com/strata-iac/strata/orchestrator/source/oci/ocitest"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

var (
	ociRepositories = schema.GroupVersionResource{Group: "source.toolkit.fluxcd.io", Version: "v1", Resource: "ocirepositories"}
	terraforms      = v1alpha2.GroupVersionResource
)

// world is a namespace of the test cluster with strata's and
// source-controller's CRDs, a real source-controller watching it, a real
// OCI registry, and a controller reconciling it in this process.
type world struct {
	t   *testing.T
	c   *k8stest.Cluster
	dyn dynamic.Interface
	ns  string
	reg *ocitest.Registry
	// cfg is the controller's configuration: a test that changes it makes
	// ctrl again.
	cfg  controller.Config
	ctrl *controller.Controller
	logs testkit.Buffer
	// executed counts the runs that reached the executor: each one a tofu
	// run (a runner Job, with the Job executor).
	executed atomic.Int32
	// bin is strata built from this checkout, once a test runs it.
	bin string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	c := k8stest.Get(t)
	w := &world{t: t, c: c, ns: c.Namespace(t, "strata-ctrl")}
	dyn, err := dynamic.NewForConfig(c.Config)
	if err != nil {
		t.Fatal(err)
	}
	w.dyn = dyn
	installCRDs(t, c, append(crdFiles(t, sourceControllerCRDs(t)), "../../flux-apps/strata/crd/infra.contrib.fluxcd.io_terraforms.yaml"))
	// Registered before the controllers start, so it runs after they
	// stopped and before the namespace is deleted.
	t.Cleanup(w.releaseFinalizers)
	startSourceController(t, c, w.ns)
	w.reg = ocitest.Start(t)
	client, err := kube.NewForConfig(c.Config)
	if err != nil {
		t.Fatal(err)
	}
	w.cfg = controller.Config{
		Cluster:    client,
		Namespaces: []string{w.ns},
		Pipeline: reconcile.Pipeline{Options: reconcile.Options{
			Tofu: tofutest.Binary(t), StateDir: t.TempDir(), DriftInterval: time.Hour,
			Logger: runlog.New(&w.logs, nil), KubernetesLocks: kube.ReadStateLock,
		}},
		Logger: runlog.New(&w.logs, nil),
		Executor: func(cfg runner.Config) controller.Executor {
			return counting{exec: controller.InProcess{Runner: runner.New(cfg)}, n: &w.executed}
		},
	}
	w.ctrl = controller.New(w.cfg)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("run log:\n%s", w.logs.String())
		}
	})
	return w
}

// counting counts the runs an executor is handed.
type counting struct {
	exec controller.Executor
	n    *atomic.Int32
}

func (c counting) Execute(ctx context.Context, req controller.Request) (controller.Outcome, error) {
	c.n.Add(1)
	return c.exec.Execute(ctx, req)
}

// sourceControllerCRDs is the directory of source-controller's CRDs that
// make source-controller writes beside its binary.
func sourceControllerCRDs(t *testing.T) string {
	return sourceControllerBinary(t) + "-crds"
}

func sourceControllerBinary(t *testing.T) string {
	t.Helper()
	return fluxControllerBinary(t, "source-controller", "STRATA_SOURCE_CONTROLLER")
}

// fluxControllerBinary is the Flux controller name that make builds into
// bin/ (make name), or the one the environment variable env names.
func fluxControllerBinary(t *testing.T, name, env string) string {
	t.Helper()
	bin := os.Getenv(env)
	if bin == "" {
		bin = "../../bin/" + name
	}
	abs, err := filepath.Abs(bin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(abs); err != nil {
		t.Fatalf("%s %s not found: build it with make %s (make test-k8s does)", name, abs, name)
	}
	return abs
}

func crdFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no CRDs in %s: %v", dir, err)
	}
	return files
}

// installCRDs creates or updates the CRDs of files, and waits until they
// are served. CRDs are shared by every test of the cluster: they are never
// deleted.
func installCRDs(t *testing.T, c *k8stest.Cluster, files []string) {
	t.Helper()
	ctx := context.Background()
	cs, err := apiextensions.NewForConfig(c.Config)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, doc := range bytes.Split(b, []byte("\n---")) {
			if len(bytes.TrimSpace(bytes.TrimPrefix(doc, []byte("---")))) == 0 {
				continue
			}
			var crd apiextensionsv1.CustomResourceDefinition
			if err := yaml.Unmarshal(doc, &crd); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			have, err := cs.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, crd.Name, metav1.GetOptions{})
			switch {
			case apierrors.IsNotFound(err):
				if _, err := cs.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, &crd, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
					t.Fatalf("create CRD %s: %v", crd.Name, err)
				}
			case err != nil:
				t.Fatal(err)
			default:
				crd.ResourceVersion = have.ResourceVersion
				if _, err := cs.ApiextensionsV1().CustomResourceDefinitions().Update(ctx, &crd, metav1.UpdateOptions{}); err != nil && !apierrors.IsConflict(err) {
					t.Fatalf("update CRD %s: %v", crd.Name, err)
				}
			}
			waitFor(t, 30*time.Second, "CRD "+crd.Name+" established", func() (bool, error) {
				got, err := cs.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, crd.Name, metav1.GetOptions{})
				if err != nil {
					return false, err
				}
				for _, cond := range got.Status.Conditions {
					if cond.Type == apiextensionsv1.Established && cond.Status == apiextensionsv1.ConditionTrue {
						return true, nil
					}
				}
				return false, nil
			})
		}
	}
}

// startSourceController runs source-controller outside the cluster, with
// the admin kubeconfig, watching only ns, its artifacts served on a free
// port of the node's address, which this machine, runner pods on the
// node's network and pods on the pod network (strata's Deployment) all
// reach. It returns once source-controller is healthy.
func startSourceController(t *testing.T, c *k8stest.Cluster, ns string) {
	t.Helper()
	startFluxController(t, c, ns, sourceControllerBinary(t), func() []string {
		storage := c.FreeNodeAddr(t)
		return []string{
			"--storage-path=" + t.TempDir(),
			"--storage-addr=" + storage,
			"--storage-adv-addr=" + storage,
		}
	})
}

// startFluxController runs one of Flux's controllers, bin, outside the
// cluster, with the admin kubeconfig, watching only ns, with the flags
// args makes (its ports, chosen anew on each attempt) and its own metrics
// and health ports. It returns once the controller is healthy. A port
// taken between its choice and the controller's bind (another process
// got it first) is chosen again.
func startFluxController(t *testing.T, c *k8stest.Cluster, ns, bin string, args func() []string) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		err := tryFluxController(t, c, ns, bin, args())
		if err == nil {
			return
		}
		if attempt == 3 || !strings.Contains(err.Error(), "address already in use") {
			t.Fatalf("start %s: %v", filepath.Base(bin), err)
		}
	}
}

// tryFluxController starts the controller once and waits until it is
// healthy; an error when it exits first.
func tryFluxController(t *testing.T, c *k8stest.Cluster, ns, bin string, args []string) error {
	t.Helper()
	name := filepath.Base(bin)
	health := testkit.FreeAddr(t)
	cmd := exec.Command(bin, append([]string{
		"--watch-all-namespaces=false",
		"--enable-leader-election=false",
		"--metrics-addr=" + testkit.FreeAddr(t),
		"--health-addr=" + health,
		"--log-level=info",
	}, args...)...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+c.Kubeconfig, "RUNTIME_NAMESPACE="+ns)
	var out testkit.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	deadline := time.Now().Add(time.Minute)
	for {
		select {
		case <-exited:
			return fmt.Errorf("%s exited: %s", name, out.String())
		default:
		}
		if resp, err := http.Get("http://" + health + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			<-exited
			return fmt.Errorf("%s not healthy after a minute: %s", name, out.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("%s log:\n%s", name, out.String())
		}
	})
	return nil
}

// waitFor polls cond until it holds, failing the test after timeout.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var last error
	for time.Now().Before(deadline) {
		ok, err := cond()
		if ok {
			return
		}
		last = err
		time.Sleep(300 * time.Millisecond)
	}
	t.Fatalf("%s: not after %s (last error: %v)", what, timeout, last)
}

// push publishes a directory as an OCI artefact of the test registry, and
// creates the OCIRepository that source-controller fetches it through.
func (w *world) push(name, dir, tag string) {
	w.t.Helper()
	w.pushIn(w.ns, name, dir, tag)
}

// pushIn is push with the OCIRepository in namespace ns, which a
// source-controller must watch.
func (w *world) pushIn(ns, name, dir, tag string) {
	w.t.Helper()
	ctx := context.Background()
	client := oci.New(oci.Options{CacheDir: w.t.TempDir(), Insecure: []string{w.reg.Host}})
	if _, err := client.Push(ctx, dir, w.reg.URL("iac/"+name)+":"+tag, oci.PushMeta{Source: "https://example.com/" + name, Revision: tag}); err != nil {
		w.t.Fatalf("Push(%s) = %v", dir, err)
	}
	repo := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "source.toolkit.fluxcd.io/v1", "kind": "OCIRepository",
		"metadata": map[string]any{"name": name, "namespace": ns},
		"spec": map[string]any{
			"url": "oci://" + w.reg.Host + "/iac/" + name, "interval": "1m", "insecure": true,
			"ref": map[string]any{"tag": tag},
		},
	}}
	have, err := w.dyn.Resource(ociRepositories).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err == nil {
		repo.SetResourceVersion(have.GetResourceVersion())
		_, err = w.dyn.Resource(ociRepositories).Namespace(ns).Update(ctx, repo, metav1.UpdateOptions{})
	} else {
		_, err = w.dyn.Resource(ociRepositories).Namespace(ns).Create(ctx, repo, metav1.CreateOptions{})
	}
	if err != nil {
		w.t.Fatalf("apply OCIRepository %s: %v", name, err)
	}
	waitFor(w.t, 60*time.Second, "OCIRepository "+name+" artifact of "+tag, func() (bool, error) {
		got, err := w.dyn.Resource(ociRepositories).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		rev, _, _ := unstructured.NestedString(got.Object, "status", "artifact", "revision")
		return strings.HasPrefix(rev, tag+"@"), nil
	})
}

// apply creates or updates a Terraform object.
func (w *world) apply(tf *v1alpha2.Terraform) {
	w.t.Helper()
	ctx := context.Background()
	tf.APIVersion, tf.Kind, tf.Namespace = v1alpha2.GroupVersion.String(), v1alpha2.Kind, w.ns
	if tf.Spec.Interval.Duration == 0 {
		tf.Spec.Interval = metav1.Duration{Duration: 5 * time.Minute}
	}
	u := toUnstructured(w.t, tf)
	have, err := w.dyn.Resource(terraforms).Namespace(w.ns).Get(ctx, tf.Name, metav1.GetOptions{})
	if err == nil {
		u.SetResourceVersion(have.GetResourceVersion())
		u.SetFinalizers(have.GetFinalizers())
		_, err = w.dyn.Resource(terraforms).Namespace(w.ns).Update(ctx, u, metav1.UpdateOptions{})
	} else {
		_, err = w.dyn.Resource(terraforms).Namespace(w.ns).Create(ctx, u, metav1.CreateOptions{})
	}
	if err != nil {
		w.t.Fatalf("apply Terraform %s: %v", tf.Name, err)
	}
}

// get reads a Terraform object; nil when it is gone.
func (w *world) get(name string) *v1alpha2.Terraform {
	w.t.Helper()
	u, err := w.dyn.Resource(terraforms).Namespace(w.ns).Get(context.Background(), name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		w.t.Fatal(err)
	}
	var tf v1alpha2.Terraform
	fromUnstructured(w.t, u, &tf)
	return &tf
}

// edit changes a Terraform object's spec.
func (w *world) edit(name string, change func(*v1alpha2.TerraformSpec)) {
	w.t.Helper()
	tf := w.get(name)
	change(&tf.Spec)
	u := toUnstructured(w.t, tf)
	if _, err := w.dyn.Resource(terraforms).Namespace(w.ns).Update(context.Background(), u, metav1.UpdateOptions{}); err != nil {
		w.t.Fatalf("edit Terraform %s: %v", name, err)
	}
}

// reconcile runs one reconcile of the namespace.
func (w *world) reconcile() {
	w.t.Helper()
	if err := w.ctrl.Reconcile(context.Background(), w.ns); err != nil {
		w.t.Fatalf("Reconcile(%s) = %v", w.ns, err)
	}
}

// ready returns the object's Ready condition as "status reason: message".
func ready(tf *v1alpha2.Terraform) string {
	for _, c := range tf.Status.Conditions {
		if c.Type == v1alpha2.ConditionReady {
			return fmt.Sprintf("%s %s: %s", c.Status, c.Reason, c.Message)
		}
	}
	return "no Ready condition"
}

func condition(tf *v1alpha2.Terraform, typ string) metav1.Condition {
	for _, c := range tf.Status.Conditions {
		if c.Type == typ {
			return c
		}
	}
	return metav1.Condition{}
}

// releaseFinalizers takes the finalizers off the namespace's Terraform
// objects and OCIRepositories once the test's controllers are gone: no
// controller is left to release them, and the namespace would stay
// Terminating in the shared cluster for good.
func (w *world) releaseFinalizers() {
	ctx := context.Background()
	patch := []byte(`{"metadata":{"finalizers":null}}`)
	for _, gvr := range []schema.GroupVersionResource{terraforms, ociRepositories} {
		list, err := w.dyn.Resource(gvr).Namespace(w.ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			w.t.Logf("release the finalizers of %s in %s: %v", gvr.Resource, w.ns, err)
			continue
		}
		for _, u := range list.Items {
			if len(u.GetFinalizers()) == 0 {
				continue
			}
			if _, err := w.dyn.Resource(gvr).Namespace(w.ns).Patch(ctx, u.GetName(), types.MergePatchType, patch, metav1.PatchOptions{}); err != nil && !apierrors.IsNotFound(err) {
				w.t.Logf("release the finalizers of %s %s/%s: %v", gvr.Resource, w.ns, u.GetName(), err)
			}
		}
	}
}

// delete deletes a Terraform object; its finalizer keeps it until the
// controller lets it go.
func (w *world) delete(name string) {
	w.t.Helper()
	if err := w.dyn.Resource(terraforms).Namespace(w.ns).Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
		w.t.Fatalf("delete Terraform %s: %v", name, err)
	}
}
