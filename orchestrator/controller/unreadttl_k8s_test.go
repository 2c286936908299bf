//go:build k8s

package controller_test

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/jobs"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

// TestUnreadTTLInCluster: a controller with a tiny backstop TTL
// (jobs.Config.UnreadTTL, 3s here) whose leader is lost after its runner
// Job finished and before it recorded the outcome sees Kubernetes' ttl
// controller remove that Job; nothing of the run is lost: the pod
// recorded it, and the next leader writes the object's status from the
// history (lastAppliedRevision and Ready).
func TestUnreadTTLInCluster(t *testing.T) {
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
	tiny := func(c *jobs.Config) { c.UnreadTTL = 3 * time.Second }

	var firstLog testkit.Buffer
	lost, lose := context.WithCancel(ctx)
	defer lose()
	first := w.jobsController(t, "leader-1", lostAtWrite{Cluster: w.cfg.Cluster, object: "network", lose: lose}, &firstLog, tiny)
	_ = first.Reconcile(lost, w.ns)
	if lost.Err() == nil {
		t.Fatalf("the first leader's pass ended without writing network's status:\n%s", firstLog.String())
	}
	waitFor(t, 2*time.Minute, "network's finished runner job removed by its TTL", func() (bool, error) {
		list, err := w.c.Client.BatchV1().Jobs(w.ns).List(ctx, metav1.ListOptions{LabelSelector: jobs.LabelObject + "=network"})
		return err == nil && len(list.Items) == 0, err
	})

	var nextLog testkit.Buffer
	next := w.jobsController(t, "leader-2", w.cfg.Cluster, &nextLog, tiny)
	if err := next.Reconcile(ctx, w.ns); err != nil {
		t.Fatalf("Reconcile(%s) by the next leader = %v\n%s", w.ns, err, nextLog.String())
	}
	tf := w.get("network")
	if got := tf.Status.LastAppliedRevision; !strings.HasPrefix(got, "0.1.0@") {
		t.Errorf("network lastAppliedRevision after its job's TTL = %q, want 0.1.0@… from the history; Ready: %s\n%s", got, ready(tf), nextLog.String())
	}
	if c := condition(tf, v1alpha2.ConditionReady); c.Status != metav1.ConditionTrue {
		t.Errorf("network Ready after its job's TTL = %s, want True", ready(tf))
	}
}
