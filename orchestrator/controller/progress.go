package controller

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
)

// Reasons of a run's progress, while the pass that runs it goes on.
const (
	// ReasonRunnerPodRefused: the API server refused the run's runner
	// pod (a PriorityClass that does not exist, a full ResourceQuota, an
	// admission webhook); the run starts once that is fixed, or fails if
	// it stays refused (the executor gives it up: Outcome.RunnerPodRefused),
	// and then keeps this reason while it waits to be retried.
	ReasonRunnerPodRefused = "RunnerPodRefused"
	// ReasonProgressing: the run started after all; Flux's word for a
	// reconcile in progress.
	ReasonProgressing = "Progressing"
)

// progress writes what an executor says of a run before it ends in the
// object's status at once, not at the end of the pass, with an Event: a
// runner pod the API server refuses makes Ready False (reason
// RunnerPodRefused, the refusal's reason and message), and its start
// after all makes Ready Unknown (Progressing) until the pass writes the
// run's outcome. Only the stack's own run calls it, from the goroutine
// that runs it, and the pass writes the object's status after every run
// ended: one writer at a time.
func (c *Controller) progress(ctx context.Context, tf *v1alpha2.Terraform, pr Progress) {
	prev := readyOf(tf)
	if pr.Reason == "" {
		msg := fmt.Sprintf("Reconciliation in progress: runner job %s started", pr.Runner)
		setReadyStatus(tf, metav1.ConditionUnknown, ReasonProgressing, msg, "")
		_ = c.writeObjectStatus(ctx, tf, prev, "Normal", ReasonProgressing, msg)
		return
	}
	msg := fmt.Sprintf("runner job %s cannot create its pod (%s): %s; the run starts once that is fixed, or fails if its pod stays refused (--runner-pod-refused-timeout)",
		pr.Runner, pr.Reason, pr.Message)
	setReady(tf, false, ReasonRunnerPodRefused, msg, "")
	_ = c.writeObjectStatus(ctx, tf, prev, "Warning", ReasonRunnerPodRefused, msg)
}
