//go:build k8s

package controller_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/strata-iac/strata/internal/k8stest"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

// manifests is the Kustomize base a Flux user points a Kustomization at.
const manifests = "../../flux-apps/strata"

// deployOverlay is what the test cluster needs patched into the shipped
// Deployment, and nothing else (see docs/cluster-mode.md): strata's image as the
// test built and imported it (never pulled); the API server, which
// listens on the node's loopback only and has no Service proxy in front,
// reached through PodAPIServer's forwarder under the name its certificate
// carries; the namespace it watches; and runner pods on the node's
// network (--runner-api-server), for the same reason.
const deployOverlay = `namespace: %[1]s
images:
  - name: ghcr.io/strata-iac/strata
    newName: %[2]s
    newTag: %[3]s
patches:
  - target: {kind: Deployment, name: strata-controller}
    patch: |
      - {op: test, path: /spec/template/spec/containers/0/args/1, value: --namespace=flux-system}
      - {op: replace, path: /spec/template/spec/containers/0/args/1, value: --namespace=%[4]s}
      - {op: add, path: /spec/template/spec/containers/0/args/-, value: --runner-api-server=127.0.0.1:6443}
      - {op: add, path: /spec/template/spec/containers/0/args/-, value: --runner-image-pull-policy=Never}
      - {op: add, path: /spec/template/spec/containers/0/imagePullPolicy, value: Never}
      - {op: add, path: /spec/template/spec/containers/0/env/-, value: {name: KUBERNETES_SERVICE_HOST, value: %[5]s}}
      - {op: add, path: /spec/template/spec/containers/0/env/-, value: {name: KUBERNETES_SERVICE_PORT, value: "%[6]s"}}
      - {op: add, path: /spec/template/spec/hostAliases, value: [{ip: %[7]s, hostnames: [%[5]s]}]}
`

// TestDeploymentInCluster runs the Deployment of flux-apps/strata, built
// with kustomize as Flux builds it and patched only where the test cluster
// needs it (deployOverlay), with the runner base in the Terraform objects'
// namespace: both replicas become Ready through their probes, exactly one
// holds the Lease, a Terraform object is reconciled Ready by the replica
// that leads through a runner Job, and deleting the leader's pod hands the
// Lease to another replica.
func TestDeploymentInCluster(t *testing.T) {
	w := newWorld(t)
	c, cs := w.c, w.c.Client
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	system := c.Namespace(t, "strata-system")
	image := c.StrataImage(t)
	i := strings.LastIndex(image, ":")
	name, tag := image[:i], image[i+1:]
	apiAddr, apiPort := c.PodAPIServer(t)

	// The base in strata's namespace, the runner base in the objects'.
	objs := k8stest.Kustomize(t, k8stest.Overlay(t, manifests, fmt.Sprintf(deployOverlay, system, name, tag, w.ns, k8stest.APIServerName, apiPort, apiAddr)))
	objs = append(objs, k8stest.Kustomize(t, k8stest.Overlay(t, manifests+"/runner", "namespace: "+w.ns+"\n"))...)
	a := c.Applier(t, "strata-deploy-test")
	for _, obj := range isolate(t, c, objs, system) {
		if err := a.Apply(ctx, obj, false); err != nil {
			t.Fatalf("%v", err)
		}
	}
	t.Cleanup(func() {
		if t.Failed() {
			logPods(t, c, system, "app.kubernetes.io/name=strata-controller")
		}
	})

	// Both replicas Ready: their readiness probes answer 200.
	var pods []corev1.Pod
	waitFor(t, 4*time.Minute, "2 Ready replicas of strata-controller", func() (bool, error) {
		pods = readyPods(ctx, t, c, system)
		return len(pods) == 2, nil
	})
	for _, p := range pods {
		sc, ctr := p.Spec.SecurityContext, p.Spec.Containers[0]
		if sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || ctr.SecurityContext == nil ||
			ctr.SecurityContext.ReadOnlyRootFilesystem == nil || !*ctr.SecurityContext.ReadOnlyRootFilesystem {
			t.Errorf("pod %s runs as non-root %v, on a read-only root %v; want both", p.Name, sc, ctr.SecurityContext)
		}
		if ctr.ReadinessProbe == nil || ctr.ReadinessProbe.HTTPGet == nil || ctr.LivenessProbe == nil || ctr.LivenessProbe.HTTPGet == nil {
			t.Errorf("pod %s has readiness probe %v and liveness probe %v, want both over HTTP", p.Name, ctr.ReadinessProbe, ctr.LivenessProbe)
		}
	}

	// Exactly one holds the Lease; the other follows it.
	leader := leaseHolder(ctx, t, c, system)
	var lead, follow *corev1.Pod
	for i := range pods {
		if strings.HasPrefix(leader, pods[i].Name+"_") {
			lead = &pods[i]
		} else {
			follow = &pods[i]
		}
	}
	if lead == nil || follow == nil {
		t.Fatalf("the Lease is held by %q, want one of the two replicas %s and %s", leader, pods[0].Name, pods[1].Name)
	}
	waitFor(t, time.Minute, "replica "+follow.Name+" logs that it follows "+leader, func() (bool, error) {
		log, err := podLog(ctx, c, system, follow.Name)
		return strings.Contains(log, "leader election: "+leader+" leads; "+follow.Name+"_"), err
	})

	// A Terraform object, reconciled Ready by the leader through a runner
	// Job.
	jw := watchJobs(t, w)
	w.push("network", "../jobs/testdata/stack", "0.1.0")
	w.apply(&v1alpha2.Terraform{
		ObjectMeta: metav1.ObjectMeta{Name: "network"},
		Spec: v1alpha2.TerraformSpec{
			ApprovePlan: "auto", Path: "./",
			SourceRef: v1alpha2.CrossNamespaceSourceReference{Kind: "OCIRepository", Name: "network"},
		},
	})
	waitFor(t, 5*time.Minute, "network Ready", func() (bool, error) {
		tf := w.get("network")
		return tf != nil && condition(tf, v1alpha2.ConditionReady).Status == metav1.ConditionTrue, nil
	})
	tf := w.get("network")
	if got := tf.Status.LastAppliedRevision; !strings.HasPrefix(got, "0.1.0@") {
		t.Errorf("network lastAppliedRevision = %q, want 0.1.0@…", got)
	}
	if got := jw.Created(); len(got) == 0 || !strings.HasPrefix(got[0], "network-tf-runner-") {
		t.Errorf("runner Jobs created in %s = %v, want network's", w.ns, got)
	}
	log, err := podLog(ctx, c, system, lead.Name)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log, "[network]") || t.Failed() {
		t.Errorf("the leader's log has no line of network's run, or the run went wrong:\n%s", log)
	}
	// Everything it did, its service account may do (least privilege, but
	// enough).
	if strings.Contains(log, "forbidden") {
		t.Errorf("the leader was refused a request:\n%s", log)
	}

	// Deleting the leader's pod hands the Lease over: the leader releases
	// it as it stops, and a follower takes it. Which follower is a race:
	// the other replica, or the pod the ReplicaSet starts in the deleted
	// one's place, whichever tries first.
	if err := cs.CoreV1().Pods(system).Delete(ctx, lead.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	var next string
	waitFor(t, 2*time.Minute, "the Lease held by another replica than "+leader, func() (bool, error) {
		next = leaseHolder(ctx, t, c, system)
		return next != "" && next != leader, nil
	})
	waitFor(t, 4*time.Minute, "2 Ready replicas again", func() (bool, error) {
		pods = readyPods(ctx, t, c, system)
		return len(pods) == 2, nil
	})
	var names []string
	for _, p := range pods {
		names = append(names, p.Name)
		if strings.HasPrefix(next, p.Name+"_") {
			t.Logf("the Lease went from %s to %s (the other replica: %v)", leader, next, p.Name == follow.Name)
			return
		}
	}
	t.Errorf("the Lease went from %s to %s, want one of the replicas %v", leader, next, names)
}

// isolate gives the cluster-scoped RBAC objects of objs (the ClusterRoles
// and their bindings) this test's suffix, as the cluster is shared by
// every test, and leaves out the CRD and the PriorityClass, which are
// shared by them all: the CRD is installed by newWorld, the PriorityClass
// created here when missing. The renamed objects are deleted when the
// test ends.
func isolate(t *testing.T, c *k8stest.Cluster, objs []*unstructured.Unstructured, suffix string) []*unstructured.Unstructured {
	t.Helper()
	var kept []*unstructured.Unstructured
	for _, obj := range objs {
		switch obj.GetKind() {
		case "CustomResourceDefinition":
			continue
		case "PriorityClass":
			c.PriorityClass(t)
			continue
		case "ClusterRole", "ClusterRoleBinding":
			obj.SetName(obj.GetName() + "-" + suffix)
			kind, name := obj.GetKind(), obj.GetName()
			t.Cleanup(func() {
				var err error
				if kind == "ClusterRole" {
					err = c.Client.RbacV1().ClusterRoles().Delete(context.Background(), name, metav1.DeleteOptions{})
				} else {
					err = c.Client.RbacV1().ClusterRoleBindings().Delete(context.Background(), name, metav1.DeleteOptions{})
				}
				if err != nil && !apierrors.IsNotFound(err) {
					t.Errorf("delete %s %s: %v", kind, name, err)
				}
			})
		}
		if ref, ok, _ := unstructured.NestedString(obj.Object, "roleRef", "kind"); ok && ref == "ClusterRole" {
			name, _, _ := unstructured.NestedString(obj.Object, "roleRef", "name")
			if err := unstructured.SetNestedField(obj.Object, name+"-"+suffix, "roleRef", "name"); err != nil {
				t.Fatal(err)
			}
		}
		kept = append(kept, obj)
	}
	return kept
}

// readyPods lists the controller's pods that are Ready and not being
// deleted. A container that restarted fails the test: strata exited, or
// its liveness probe failed.
func readyPods(ctx context.Context, t *testing.T, c *k8stest.Cluster, ns string) []corev1.Pod {
	t.Helper()
	list, err := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app.kubernetes.io/name=strata-controller"})
	if err != nil {
		t.Fatalf("list pods of %s: %v", ns, err)
	}
	var ready []corev1.Pod
	for _, p := range list.Items {
		if p.DeletionTimestamp != nil {
			continue
		}
		for _, s := range p.Status.ContainerStatuses {
			if s.RestartCount > 0 {
				t.Fatalf("pod %s restarted %d times, want none", p.Name, s.RestartCount)
			}
		}
		for _, cond := range p.Status.Conditions {
			if cond.Type == corev1.PodReady && cond.Status == corev1.ConditionTrue {
				ready = append(ready, p)
			}
		}
	}
	return ready
}

// leaseHolder is the holderIdentity of the Lease strata's replicas share.
func leaseHolder(ctx context.Context, t *testing.T, c *k8stest.Cluster, ns string) string {
	t.Helper()
	l, err := c.Client.CoordinationV1().Leases(ns).Get(ctx, "strata", metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return ""
	}
	if err != nil {
		t.Fatalf("get Lease %s/strata: %v", ns, err)
	}
	if l.Spec.HolderIdentity == nil {
		return ""
	}
	return *l.Spec.HolderIdentity
}

// podLog is a pod's log so far.
func podLog(ctx context.Context, c *k8stest.Cluster, ns, pod string) (string, error) {
	b, err := c.Client.CoreV1().Pods(ns).GetLogs(pod, &corev1.PodLogOptions{}).DoRaw(ctx)
	return string(b), err
}

// logPods logs the state and log of the pods selector selects.
func logPods(t *testing.T, c *k8stest.Cluster, ns, selector string) {
	ctx := context.Background()
	list, err := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		t.Logf("list pods of %s: %v", ns, err)
		return
	}
	for _, p := range list.Items {
		log, err := podLog(ctx, c, ns, p.Name)
		restarts := 0
		for _, s := range p.Status.ContainerStatuses {
			restarts += int(s.RestartCount)
		}
		t.Logf("pod %s: phase %s, %d restarts, log (%v):\n%s", p.Name, p.Status.Phase, restarts, err, log)
	}
}
