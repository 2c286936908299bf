//go:build k8s

package controller_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/controller"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/jobs"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/kuberecords"
)

// lostAtWrite is the real cluster, except that the leader is lost (its
// context cancelled, as when its Lease is lost) at its first write of the
// object's Event or status: after it read the runner Job's outcome,
// before anything of it is written.
type lostAtWrite struct {
	controller.Cluster
	object string
	lose   context.CancelFunc
}

var errLost = errors.New("the leader was lost")

func (l lostAtWrite) UpdateStatus(ctx context.Context, tf *v1alpha2.Terraform) error {
	if tf.Name == l.object {
		l.lose()
		return errLost
	}
	return l.Cluster.UpdateStatus(ctx, tf)
}

func (l lostAtWrite) Event(ctx context.Context, tf *v1alpha2.Terraform, typ, reason, msg string) error {
	if tf.Name == l.object {
		l.lose()
		return errLost
	}
	return l.Cluster.Event(ctx, tf, typ, reason, msg)
}

// jobAtStatus is the real cluster, noting at each status write of the
// object that sets status.plan.lastApplied whether its runner Job was
// still there.
type jobAtStatus struct {
	controller.Cluster
	w      *world
	object string
	mu     sync.Mutex
	seen   []int
}

func (j *jobAtStatus) UpdateStatus(ctx context.Context, tf *v1alpha2.Terraform) error {
	if tf.Name == j.object && tf.Status.Plan.LastApplied != "" {
		list, err := j.w.c.Client.BatchV1().Jobs(j.w.ns).List(ctx, metav1.ListOptions{LabelSelector: jobs.LabelObject + "=" + tf.Name})
		if err != nil {
			return err
		}
		j.mu.Lock()
		j.seen = append(j.seen, len(list.Items))
		j.mu.Unlock()
	}
	return j.Cluster.UpdateStatus(ctx, tf)
}

func (j *jobAtStatus) jobs() []int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]int(nil), j.seen...)
}

// TestStatusBeforeReleaseInCluster: a leader that read a runner Job's
// outcome and was lost before it wrote anything of it (the object's Event
// and status) leaves the finished Job, unread; the next leader adopts it
// and writes status.plan.lastApplied, lastAppliedRevision, the Apply
// condition and the apply's Event, and only then removes the Job.
func TestStatusBeforeReleaseInCluster(t *testing.T) {
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	w.c.RunnerAccount(t, w.ns, "tf-runner")
	w.push("network", "../jobs/testdata/stack", "0.1.0")
	w.apply(&v1alpha2.Terraform{
		ObjectMeta: metav1.ObjectMeta{Name: "network"},
		Spec: v1alpha2.TerraformSpec{
			ApprovePlan: "auto", Path: "./",
			SourceRef: v1alpha2.CrossNamespaceSourceReference{Kind: "OCIRepository", Name: "network"},
		},
	})

	// The first leader runs network's Job, reads its outcome, and is lost.
	var firstLog testkit.Buffer
	lost, lose := context.WithCancel(ctx)
	defer lose()
	first := w.jobsController(t, "leader-1", lostAtWrite{Cluster: w.cfg.Cluster, object: "network", lose: lose}, &firstLog)
	_ = first.Reconcile(lost, w.ns)
	if lost.Err() == nil {
		t.Fatalf("the first leader's pass ended without writing network's status:\n%s", firstLog.String())
	}
	list, err := w.c.Client.BatchV1().Jobs(w.ns).List(ctx, metav1.ListOptions{LabelSelector: jobs.LabelObject + "=network"})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || !finished(&list.Items[0]) || list.Items[0].Annotations[jobs.AnnotationRead] != "" {
		t.Fatalf("network's runner jobs after the first leader was lost = %d, want one, finished and unread:\n%s", len(list.Items), firstLog.String())
	}
	job := list.Items[0].Name
	if ttl, want := list.Items[0].Spec.TTLSecondsAfterFinished, int32(jobs.DefaultUnreadTTL/time.Second); ttl == nil || *ttl != want {
		t.Errorf("job %s ttlSecondsAfterFinished = %v, want only the backstop %d, far beyond the next leader's status write", job, ttl, want)
	}
	if tf := w.get("network"); tf.Status.Plan.LastApplied != "" || len(w.events("network", v1alpha2.ReasonApplySucceeded)) != 0 {
		t.Fatalf("the first leader wrote network's status or Event before it was lost: %s", ready(tf))
	}

	// The next leader adopts the Job and writes all of it.
	var nextLog testkit.Buffer
	hook := &jobAtStatus{Cluster: w.cfg.Cluster, w: w, object: "network"}
	next := w.jobsController(t, "leader-2", hook, &nextLog)
	if err := next.Reconcile(ctx, w.ns); err != nil {
		t.Fatalf("Reconcile(%s) by the next leader = %v\n%s", w.ns, err, nextLog.String())
	}
	if want := "adopting this run's runner job " + job; !strings.Contains(nextLog.String(), want) {
		t.Errorf("the next leader's log lacks %q:\n%s", want, nextLog.String())
	}
	recs, err := kuberecords.New(kuberecords.Config{Kubeconfig: w.c.Kubeconfig, Namespace: w.ns})
	if err != nil {
		t.Fatal(err)
	}
	runs, err := recs.List(ctx, w.ns, w.ns, "network", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].Result != history.ResultApplied || !strings.HasPrefix(runs[0].PlanID, "plan-") {
		t.Fatalf("runs of network = %v, want one apply, applied, with its plan", runs)
	}
	tf := w.get("network")
	if got, want := tf.Status.Plan.LastApplied, runs[0].PlanID; got != want {
		t.Errorf("network status.plan.lastApplied = %q, want the applied plan %s; Ready: %s", got, want, ready(tf))
	}
	if got := tf.Status.LastAppliedRevision; !strings.HasPrefix(got, "0.1.0@") {
		t.Errorf("network lastAppliedRevision = %q, want 0.1.0@…", got)
	}
	if c := condition(tf, v1alpha2.ConditionApply); c.Status != metav1.ConditionTrue || c.Reason != v1alpha2.ReasonApplySucceeded {
		t.Errorf("network Apply condition = %s %s, want True %s", c.Status, c.Reason, v1alpha2.ReasonApplySucceeded)
	}
	if c := condition(tf, v1alpha2.ConditionReady); c.Status != metav1.ConditionTrue || c.Reason != v1alpha2.ReasonApplySucceeded {
		t.Errorf("network Ready = %s, want True %s", ready(tf), v1alpha2.ReasonApplySucceeded)
	}
	if evs := w.events("network", v1alpha2.ReasonApplySucceeded); len(evs) != 1 || !strings.HasPrefix(evs[0].Message, "Applied successfully: 0.1.0@") {
		t.Errorf("network's %s Events = %v, want one, the apply's", v1alpha2.ReasonApplySucceeded, evs)
	}
	if seen := hook.jobs(); len(seen) == 0 || seen[0] != 1 {
		t.Errorf("network's runner jobs when its status.plan.lastApplied was written = %v, want 1: the job goes only after", seen)
	}
	waitFor(t, time.Minute, "the runner job of network removed", func() (bool, error) {
		list, err := w.c.Client.BatchV1().Jobs(w.ns).List(ctx, metav1.ListOptions{})
		return err == nil && len(list.Items) == 0, err
	})
}
