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

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/leaderelection"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/kuberecords"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// Lease timings of the failover test: short, so that it fails over fast.
const (
	failoverLease = 6 * time.Second
	failoverRetry = time.Second
)

// failoverBound is the longest the follower may take to lead once the
// leader died without releasing the Lease, derived from the election's
// timings: client-go waits between two tries up to (1+JitterFactor) retry
// periods, so the follower sees the dead leader's last renewal up to one
// such wait late, counts the lease duration from that sight, and takes
// the expired Lease on its next try, one such wait later.
// failoverMargin, a quarter of the lease: the test's 300 ms poll of the
// follower's log, and API round trips and process wake-ups on a loaded
// shared machine.
const (
	failoverBound  = failoverLease + 2*time.Duration((1+leaderelection.JitterFactor)*float64(failoverRetry))
	failoverMargin = failoverLease / 4
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
// duration (failoverBound, plus failoverMargin), adopts that Job instead
// of starting another (one Job, never two of the stack in flight at once,
// one apply in the namespace's history), whether it is still running or
// finished during the takeover, reads its outcome, removes it, and writes
// the object's status: Ready, with lastAppliedRevision.
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
			// --max-runners counts the runner Jobs of the whole cluster,
			// which other tests share: the default 10, not fewer.
			"--runner-api-server", "127.0.0.1:6443", "--interval", "5s",
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

	// Every runner Job created in the namespace, as it is created, and the
	// most of them in flight at once.
	var mu sync.Mutex
	var created []string
	most, inFlight := 0, map[string]bool{}
	wi, err := cs.BatchV1().Jobs(w.ns).Watch(ctx, metav1.ListOptions{ResourceVersion: "0"})
	if err != nil {
		t.Fatal(err)
	}
	defer wi.Stop()
	go func() {
		for ev := range wi.ResultChan() {
			j, ok := ev.Object.(*batchv1.Job)
			if !ok {
				continue
			}
			mu.Lock()
			if ev.Type == watch.Added {
				created = append(created, j.Name)
			}
			if ev.Type == watch.Deleted || jobFinished(j) {
				delete(inFlight, j.Name)
			} else {
				inFlight[j.Name] = true
			}
			most = max(most, len(inFlight))
			mu.Unlock()
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
	killed := time.Now()
	_ = a.cmd.Wait()

	waitLog(b, "leader election: "+b.id+" leads", failoverBound+failoverMargin+10*time.Second)
	if took, limit := time.Since(killed), failoverBound+failoverMargin; took > limit {
		t.Errorf("the follower led %s after the leader was killed, want within the lease duration and two jittered retries (%s) plus a margin (%s): %s",
			took, failoverBound, failoverMargin, limit)
	} else {
		t.Logf("the follower led %s after the leader was killed (limit %s)", took, limit)
	}
	waitFor(t, 3*time.Minute, "network Ready", func() (bool, error) {
		tf := w.get("network")
		return tf != nil && condition(tf, "Ready").Status == metav1.ConditionTrue, nil
	})
	adoption := ""
	for line := range strings.Lines(b.out.String()) {
		if strings.Contains(line, "adopting this run's runner job") || strings.Contains(line, "adopting another run's runner job") {
			adoption = line
		}
	}
	if adoption == "" {
		t.Errorf("the new leader did not adopt the runner job:\n%s", b.out.String())
	}
	t.Logf("the new leader: %s", strings.TrimSpace(adoption))
	tf := w.get("network")
	if got := tf.Status.LastAppliedRevision; !strings.HasPrefix(got, "0.1.0@") {
		t.Errorf("network lastAppliedRevision = %q, want 0.1.0@…; Ready: %s", got, ready(tf))
	}
	if c := condition(tf, v1alpha2.ConditionApply); c.Status != metav1.ConditionTrue || c.Reason != v1alpha2.ReasonApplySucceeded {
		t.Errorf("network Apply condition = %s %s, want True %s", c.Status, c.Reason, v1alpha2.ReasonApplySucceeded)
	}
	// One apply: the namespace's history, which the runner pod wrote, has
	// one run of network, applied.
	recs, err := kuberecords.New(kuberecords.Config{Kubeconfig: w.c.Kubeconfig, Namespace: w.ns})
	if err != nil {
		t.Fatal(err)
	}
	runs, err := recs.List(ctx, w.ns, w.ns, "network", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].Result != history.ResultApplied || runs[0].Operation != history.OperationApply {
		t.Errorf("runs of network = %v, want one apply, applied", runs)
	}
	// The new leader read the adopted Job's outcome, and removed it.
	waitFor(t, time.Minute, "the runner job of network removed", func() (bool, error) {
		list, err := cs.BatchV1().Jobs(w.ns).List(ctx, metav1.ListOptions{})
		return err == nil && len(list.Items) == 0, err
	})
	mu.Lock()
	defer mu.Unlock()
	if len(created) != 1 {
		t.Errorf("runner jobs created = %v, want one: the new leader adopts the job of the killed one", created)
	}
	if most != 1 {
		t.Errorf("most runner jobs of network in flight at once = %d, want 1", most)
	}
}

// jobFinished reports whether a Job has a Complete or Failed condition.
func jobFinished(j *batchv1.Job) bool {
	for _, c := range j.Status.Conditions {
		if (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}
