//go:build k8s

package controller_test

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/jobs"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/kuberecords"
	"github.com/strata-iac/strata/orchestrator/shard"
)

// TestShardsInCluster is issue 33's sharding test: two strata controller
// processes on one namespace, the default shard (!sharding.fluxcd.io/key)
// and shard1 (sharding.fluxcd.io/key in (shard1)), each with its own
// Lease, runs as runner Jobs. apple is unlabelled, berry (and its
// OCIRepository) labelled shard1. shard1's controller is killed (kill -9)
// while berry's runner pod applies. Then:
//   - the default shard applies apple, once, and never reads, runs,
//     writes or cleans anything of berry: berry's finished Job stays for
//     its own shard, and its status is not written;
//   - shard1's next controller takes its Lease, adopts berry's Job and
//     writes berry's status: one apply, one Job;
//   - no object is run by both: one apply and one Job each.
func TestShardsInCluster(t *testing.T) {
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cs := w.c.Client
	w.c.RunnerAccount(t, w.ns, "tf-runner")
	const shard1 = "sharding.fluxcd.io/key in (shard1)"
	start := func(selector string) *replica {
		return startController(t, w,
			"--watch-label-selector", selector, "--leader-elect-namespace", w.ns,
			"--leader-elect-lease-duration", failoverLease.String(), "--leader-elect-renew-deadline", "4s",
			"--leader-elect-retry-period", failoverRetry.String())
	}
	jw := watchJobs(t, w)

	main := start(shard.Default)
	one := start(shard1)
	main.waitLog(t, "leader election: "+main.id+" leads", time.Minute)
	one.waitLog(t, "leader election: "+one.id+" leads", time.Minute)
	for lease, holder := range map[string]string{"strata": main.id, "strata-shard1": one.id} {
		l, err := cs.CoordinationV1().Leases(w.ns).Get(ctx, lease, metav1.GetOptions{})
		if err != nil {
			t.Fatalf("Lease %s: %v", lease, err)
		}
		if got := *l.Spec.HolderIdentity; got != holder {
			t.Errorf("Lease %s holder = %q, want %q: each shard leads with its own Lease", lease, got, holder)
		}
	}

	w.push("apple", "../jobs/testdata/stack", "0.1.0")
	w.push("berry", "../jobs/testdata/stack", "0.1.0")
	w.label(ociRepositories.Resource, "berry", shard.Key, "shard1")
	for _, name := range []string{"apple", "berry"} {
		tf := &v1alpha2.Terraform{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec: v1alpha2.TerraformSpec{
				ApprovePlan: "auto", Path: "./",
				SourceRef: v1alpha2.CrossNamespaceSourceReference{Kind: "OCIRepository", Name: name},
			},
		}
		if name == "berry" {
			tf.Labels = map[string]string{shard.Key: "shard1"}
		}
		w.apply(tf)
	}

	// shard1's controller dies while berry's runner pod runs.
	waitFor(t, 3*time.Minute, "the runner pod of berry runs", func() (bool, error) {
		pods, err := cs.CoreV1().Pods(w.ns).List(ctx, metav1.ListOptions{LabelSelector: jobs.LabelObject + "=berry"})
		if err != nil || len(pods.Items) == 0 {
			return false, err
		}
		return pods.Items[0].Status.Phase == corev1.PodRunning, nil
	})
	if err := one.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = one.cmd.Wait()

	waitFor(t, 3*time.Minute, "apple Ready", func() (bool, error) {
		tf := w.get("apple")
		return tf != nil && condition(tf, "Ready").Status == metav1.ConditionTrue, nil
	})
	// berry's Job finishes with no leader of its shard; the default shard
	// reconciles meanwhile (every 5 s, and on berry's Job's changes of
	// nothing it watches) and must leave it.
	waitFor(t, 3*time.Minute, "berry's runner job finished", func() (bool, error) {
		list, err := cs.BatchV1().Jobs(w.ns).List(ctx, metav1.ListOptions{LabelSelector: jobs.LabelObject + "=berry"})
		if err != nil || len(list.Items) == 0 {
			return false, err
		}
		if len(list.Items) > 1 {
			t.Fatalf("berry has %d runner jobs, want one: another shard ran it", len(list.Items))
		}
		return finished(&list.Items[0]), nil
	})
	pass := "apply " + w.ns + "/" + w.ns + ": " // the line of each pass
	passes := strings.Count(main.out.String(), pass)
	waitFor(t, time.Minute, "two more passes of the default shard", func() (bool, error) {
		return strings.Count(main.out.String(), pass) >= passes+2, nil
	})
	list, err := cs.BatchV1().Jobs(w.ns).List(ctx, metav1.ListOptions{LabelSelector: jobs.LabelObject + "=berry"})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || list.Items[0].DeletionTimestamp != nil {
		t.Errorf("berry's runner jobs after the default shard's passes = %d, want its one finished job left for shard1", len(list.Items))
	} else if got := list.Items[0].Labels[shard.JobLabel]; got != "shard1" {
		t.Errorf("berry's runner job label %s = %q, want shard1", shard.JobLabel, got)
	}
	if tf := w.get("berry"); tf.Status.LastAppliedRevision != "" {
		t.Errorf("berry lastAppliedRevision = %q with shard1 down, want none: only its shard writes its status", tf.Status.LastAppliedRevision)
	}
	if out := main.out.String(); strings.Contains(out, "berry") {
		t.Errorf("the default shard's controller named berry, which is shard1's:\n%s", out)
	}

	// shard1 comes back: it takes its Lease, adopts berry's Job and
	// writes berry's status.
	again := start(shard1)
	again.waitLog(t, "leader election: "+again.id+" leads", failoverBound+failoverMargin+time.Minute)
	waitFor(t, 3*time.Minute, "berry Ready", func() (bool, error) {
		tf := w.get("berry")
		return tf != nil && condition(tf, "Ready").Status == metav1.ConditionTrue, nil
	})
	if !strings.Contains(again.out.String(), "adopting") {
		t.Errorf("shard1's new leader did not adopt berry's runner job:\n%s", again.out.String())
	}
	if out := again.out.String() + one.out.String(); strings.Contains(out, "apple") {
		t.Errorf("shard1's controllers named apple, which is the default shard's:\n%s", out)
	}

	recs, err := kuberecords.New(kuberecords.Config{Kubeconfig: w.c.Kubeconfig, Namespace: w.ns})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"apple", "berry"} {
		runs, err := recs.List(ctx, w.ns, w.ns, name, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) != 1 || runs[0].Result != history.ResultApplied {
			t.Errorf("runs of %s = %v, want one apply, applied: reconciled by one shard, once", name, runs)
		}
		if rev := w.get(name).Status.LastAppliedRevision; !strings.HasPrefix(rev, "0.1.0@") {
			t.Errorf("%s lastAppliedRevision = %q, want 0.1.0@…", name, rev)
		}
	}
	created := jw.Created()
	if len(created) != 2 {
		t.Errorf("runner jobs created = %v, want two: one per object, none twice", created)
	}
	if most := jw.Max(); most > 2 {
		t.Errorf("most runner jobs in flight at once = %d, want at most 2", most)
	}
}

// label sets one label of an object of the world's namespace.
func (w *world) label(resource, name, key, value string) {
	w.t.Helper()
	gvr := terraforms
	if resource == ociRepositories.Resource {
		gvr = ociRepositories
	}
	patch := []byte(`{"metadata":{"labels":{"` + key + `":"` + value + `"}}}`)
	if _, err := w.dyn.Resource(gvr).Namespace(w.ns).Patch(context.Background(), name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		w.t.Fatalf("label %s %s: %v", resource, name, err)
	}
}
