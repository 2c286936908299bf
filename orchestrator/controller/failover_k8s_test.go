//go:build k8s

package controller_test

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

// Lease timings of the failover test: short, so that it fails over fast.
const (
	failoverLease = 6 * time.Second
	failoverRetry = time.Second
)

// TestLeaderFailoverInCluster is the test 4: two strata controller
// replicas, runs as runner Jobs; the leader is killed (kill -9) while its
// runner Job applies a stack. The follower leads within the lease
// duration, adopts the Job in flight instead of starting another (one Job,
// so the stack is never applied twice at once), and the object ends
// Ready.
func TestLeaderFailoverInCluster(t *testing.T) {
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cs := w.c.Client
	w.c.RunnerAccount(t, w.ns, "tf-runner")
	start := func() *replica {
		return startController(t, w, "--max-runners", "2",
			"--leader-elect-namespace", w.ns, "--leader-elect-name", "strata-failover",
			"--leader-elect-lease-duration", failoverLease.String(), "--leader-elect-renew-deadline", "4s",
			"--leader-elect-retry-period", failoverRetry.String())
	}
	waitLog := func(r *replica, line string, timeout time.Duration) {
		t.Helper()
		r.waitLog(t, line, timeout)
	}
	jw := watchJobs(t, w)

	a := start()
	waitLog(a, "leader election: "+a.id+" leads", time.Minute)
	b := start()
	waitLog(b, "leader election: "+a.id+" leads; "+b.id+" follows", time.Minute)

	w.push("network", "../jobs/testdata/stack", "0.1.0")
	w.apply(&v1alpha2.Terraform{
		ObjectMeta: metav1.ObjectMeta{Name: "network"},
		Spec: v1alpha2.TerraformSpec{
			ApprovePlan: "auto", Path: "./",
			SourceRef: v1alpha2.CrossNamespaceSourceReference{Kind: "OCIRepository", Name: "network"},
		},
	})
	// The leader dies while its runner pod runs.
	waitFor(t, 3*time.Minute, "the runner pod of network runs", func() (bool, error) {
		pods, err := cs.CoreV1().Pods(w.ns).List(ctx, metav1.ListOptions{LabelSelector: "infra.contrib.fluxcd.io/terraform=network"})
		if err != nil || len(pods.Items) == 0 {
			return false, err
		}
		return pods.Items[0].Status.Phase == corev1.PodRunning, nil
	})
	if err := a.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = a.cmd.Wait()

	waitLog(b, "leader election: "+b.id+" leads", failoverLease+2*failoverRetry+10*time.Second)
	waitFor(t, 3*time.Minute, "network Ready", func() (bool, error) {
		tf := w.get("network")
		return tf != nil && condition(tf, "Ready").Status == metav1.ConditionTrue, nil
	})
	if !strings.Contains(b.out.String(), "adopting this run's runner job") && !strings.Contains(b.out.String(), "adopting another run's runner job") {
		t.Errorf("the new leader did not adopt the runner job in flight:\n%s", b.out.String())
	}
	if created := jw.Created(); len(created) != 1 {
		t.Errorf("runner jobs created = %v, want one: the new leader adopts the job in flight", created)
	}
	if got := w.get("network").Status.LastAppliedRevision; !strings.HasPrefix(got, "0.1.0@") {
		t.Errorf("network lastAppliedRevision = %q, want 0.1.0@…", got)
	}
}
