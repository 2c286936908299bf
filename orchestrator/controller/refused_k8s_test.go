//go:build k8s

package controller_test

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/controller"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

// TestRunnerPodRefusedInCluster: a runner Job whose pod the API server
// refuses (the PriorityClass its runnerPodTemplate names does not exist)
// makes the object's Ready False, reason RunnerPodRefused, with the job
// controller's reason and message, and a Warning Event, while the pass
// that runs it still waits: within a poll of the refusal, long before the
// Job's deadline (the run's timeout, plus the grace, plus a minute). Once
// the PriorityClass exists, the job controller creates the pod, the run
// applies, and the object is Ready.
func TestRunnerPodRefusedInCluster(t *testing.T) {
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	w.c.RunnerAccount(t, w.ns, "tf-runner")
	class := "strata-late-" + w.ns
	w.push("network", "../jobs/testdata/stack", "0.1.0")
	tf := &v1alpha2.Terraform{
		ObjectMeta: metav1.ObjectMeta{Name: "network"},
		Spec: v1alpha2.TerraformSpec{
			ApprovePlan: "auto", Path: "./",
			SourceRef: v1alpha2.CrossNamespaceSourceReference{Kind: "OCIRepository", Name: "network"},
		},
	}
	tf.Spec.RunnerPodTemplate.Spec.PriorityClassName = class
	w.apply(tf)

	var log testkit.Buffer
	ctrl := w.jobsController(t, "leader", w.cfg.Cluster, &log)
	done := make(chan error, 1)
	go func() { done <- ctrl.Reconcile(ctx, w.ns) }()

	// Well within the Job's deadline (10m, plus 30s, plus 1m).
	waitFor(t, 2*time.Minute, "network Ready False RunnerPodRefused", func() (bool, error) {
		select {
		case err := <-done:
			t.Fatalf("Reconcile(%s) = %v before network's status said its runner pod was refused:\n%s", w.ns, err, log.String())
		default:
		}
		tf := w.get("network")
		c := condition(tf, v1alpha2.ConditionReady)
		return c.Status == metav1.ConditionFalse && c.Reason == controller.ReasonRunnerPodRefused, nil
	})
	c := condition(w.get("network"), v1alpha2.ConditionReady)
	for _, want := range []string{"-tf-runner-", "(FailedCreate)", class} {
		if !strings.Contains(c.Message, want) {
			t.Errorf("network Ready message = %q, want it to contain %q", c.Message, want)
		}
	}
	if evs := w.events("network", controller.ReasonRunnerPodRefused); len(evs) != 1 || evs[0].Type != "Warning" || evs[0].Message != c.Message {
		t.Errorf("network's %s Events = %v, want one Warning with Ready's message", controller.ReasonRunnerPodRefused, evs)
	}

	// The cause fixed, the run starts and applies.
	w.c.PriorityClassNamed(t, class)
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Reconcile(%s) = %v", w.ns, err)
		}
	case <-ctx.Done():
		t.Fatalf("Reconcile(%s) did not end once the PriorityClass %s exists:\n%s", w.ns, class, log.String())
	}
	got := w.get("network")
	if c := condition(got, v1alpha2.ConditionReady); c.Status != metav1.ConditionTrue || c.Reason != v1alpha2.ReasonApplySucceeded {
		t.Errorf("network Ready once its PriorityClass exists = %s, want True %s", ready(got), v1alpha2.ReasonApplySucceeded)
	}
	if !strings.HasPrefix(got.Status.Plan.LastApplied, "plan-") {
		t.Errorf("network status.plan.lastApplied = %q, want its plan", got.Status.Plan.LastApplied)
	}
	if evs := w.events("network", controller.ReasonProgressing); len(evs) != 1 {
		t.Errorf("network's %s Events = %v, want one: its runner pod started after the refusal", controller.ReasonProgressing, evs)
	}
}
