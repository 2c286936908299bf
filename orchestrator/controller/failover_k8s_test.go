//go:build k8s

package controller_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// Lease timings of the failover test: short, so that it fails over fast.
const (
	failoverLease = 6 * time.Second
	failoverRetry = time.Second
)

// replica is one strata controller process.
type replica struct {
	cmd *exec.Cmd
	out testkit.Buffer
	id  string
}

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
	image := w.c.StrataImage(t)
	tofu := tofutest.Binary(t)
	w.c.RunnerAccount(t, w.ns, "tf-runner")

	bin := filepath.Join(t.TempDir(), "strata")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/strata").CombinedOutput(); err != nil {
		t.Fatalf("go build strata: %v\n%s", err, out)
	}
	start := func() *replica {
		r := &replica{}
		r.cmd = exec.Command(bin, "controller",
			"--kubeconfig", w.c.Kubeconfig, "--namespace", w.ns, "--state-dir", t.TempDir(),
			"--runners", "jobs", "--runner-image", image, "--runner-image-pull-policy", "Never",
			"--runner-api-server", "127.0.0.1:6443", "--max-runners", "2", "--interval", "5s",
			"--leader-elect-namespace", w.ns, "--leader-elect-name", "strata-failover",
			"--leader-elect-lease-duration", failoverLease.String(), "--leader-elect-renew-deadline", "4s",
			"--leader-elect-retry-period", failoverRetry.String())
		r.cmd.Env = append(os.Environ(), "STRATA_TOFU="+tofu)
		r.cmd.Stdout, r.cmd.Stderr = &r.out, &r.out
		if err := r.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		host, _ := os.Hostname()
		r.id = fmt.Sprintf("%s_%d", host, r.cmd.Process.Pid)
		t.Cleanup(func() {
			_ = r.cmd.Process.Kill()
			_ = r.cmd.Wait()
			if t.Failed() {
				t.Logf("replica %s log:\n%s", r.id, r.out.String())
			}
		})
		return r
	}
	waitLog := func(r *replica, line string, timeout time.Duration) {
		t.Helper()
		waitFor(t, timeout, "replica "+r.id+" logs "+line, func() (bool, error) { return strings.Contains(r.out.String(), line), nil })
	}

	// Every runner Job created in the namespace, as it is created.
	var mu sync.Mutex
	var created []string
	wi, err := cs.BatchV1().Jobs(w.ns).Watch(ctx, metav1.ListOptions{ResourceVersion: "0"})
	if err != nil {
		t.Fatal(err)
	}
	defer wi.Stop()
	go func() {
		for ev := range wi.ResultChan() {
			if j, ok := ev.Object.(metav1.Object); ok && ev.Type == watch.Added {
				mu.Lock()
				created = append(created, j.GetName())
				mu.Unlock()
			}
		}
	}()

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
	mu.Lock()
	defer mu.Unlock()
	if len(created) != 1 {
		t.Errorf("runner jobs created = %v, want one: the new leader adopts the job in flight", created)
	}
	if got := w.get("network").Status.LastAppliedRevision; !strings.HasPrefix(got, "0.1.0@") {
		t.Errorf("network lastAppliedRevision = %q, want 0.1.0@…", got)
	}
}
