//go:build k8s

package controller_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/controller"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/jobs"
	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/kuberecords"
)

// TestRunnerPodRefusedInCluster: a runner Job whose pod the API server
// refuses (the PriorityClass its runnerPodTemplate names does not exist)
// makes the object's Ready False, reason RunnerPodRefused, with the job
// controller's reason and message, and a Warning Event, while the pass
// that runs it still waits: within a poll of the refusal, long before the
// Job's deadline (the run's timeout, plus the grace, plus a minute). Once
// the PriorityClass exists, the job controller creates the pod, the run
// applies, and the object is Ready; its plan is in the Secret the Tofu
// Controller keeps it in, written by the runner pod.
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

	// Well within the Job's deadline (10m, plus 30s, plus 1m), and within
	// the default --runner-pod-refused-timeout (5m).
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
	// The runner pod keeps the plan where the Tofu Controller does.
	w.wantPlanSecret("network", got.Status.Plan.LastApplied)
	if evs := w.events("network", controller.ReasonProgressing); len(evs) != 1 {
		t.Errorf("network's %s Events = %v, want one: its runner pod started after the refusal", controller.ReasonProgressing, evs)
	}
}

// TestRunnerPodRefusedGivenUpInCluster: a runner pod refused longer than
// the launcher's RefusedTimeout (a few seconds here) is given up: the Job
// and its request Secret are deleted, nothing ran (no state), and the run
// is recorded as failed with the refusal as its error: Ready False,
// reason RunnerPodRefused, a Warning Event. The next pass, within the
// object's spec.retryInterval, starts no Job and keeps the reason.
func TestRunnerPodRefusedGivenUpInCluster(t *testing.T) {
	w := newWorld(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	w.c.RunnerAccount(t, w.ns, "tf-runner")
	class := "strata-never-" + w.ns
	w.push("network", "../jobs/testdata/stack", "0.1.0")
	tf := &v1alpha2.Terraform{
		ObjectMeta: metav1.ObjectMeta{Name: "network"},
		Spec: v1alpha2.TerraformSpec{
			ApprovePlan: "auto", Path: "./", RetryInterval: &metav1.Duration{Duration: time.Hour},
			SourceRef: v1alpha2.CrossNamespaceSourceReference{Kind: "OCIRepository", Name: "network"},
		},
	}
	tf.Spec.RunnerPodTemplate.Spec.PriorityClassName = class
	w.apply(tf)

	var log testkit.Buffer
	ctrl := w.jobsController(t, "leader", w.cfg.Cluster, &log, func(c *jobs.Config) { c.RefusedTimeout = 5 * time.Second })
	if err := ctrl.Reconcile(ctx, w.ns); err != nil {
		t.Fatalf("Reconcile(%s) = %v", w.ns, err)
	}
	got := w.get("network")
	c := condition(got, v1alpha2.ConditionReady)
	if c.Status != metav1.ConditionFalse || c.Reason != controller.ReasonRunnerPodRefused {
		t.Fatalf("network Ready after its runner pod was refused for 5s = %s, want False %s:\n%s", ready(got), controller.ReasonRunnerPodRefused, log.String())
	}
	for _, want := range []string{"runner job " + w.ns + "/network-tf-runner-", ": the API server refused its pod for ", "(FailedCreate)", class, "nothing ran"} {
		if !strings.Contains(c.Message, want) {
			t.Errorf("network Ready message = %q, want it to contain %q", c.Message, want)
		}
	}
	evs := w.events("network", controller.ReasonRunnerPodRefused)
	failure := slices.IndexFunc(evs, func(e corev1.Event) bool { return e.Type == "Warning" && e.Message == c.Message })
	if len(evs) != 2 || failure < 0 {
		t.Errorf("network's %s Events = %v, want two Warnings, the refusal's and the failure's", controller.ReasonRunnerPodRefused, evs)
	}
	if list := w.runnerJobs(ctx); len(list) != 0 {
		t.Errorf("runner jobs after the run was given up = %v, want none", list)
	}
	if _, err := w.c.Client.CoreV1().Secrets(w.ns).Get(ctx, "tfstate-default-network", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("state secret of network after its run was given up: %v, want none: nothing ran", err)
	}
	recs, err := kuberecords.New(kuberecords.Config{Kubeconfig: w.c.Kubeconfig, Namespace: w.ns, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	last, ok, err := recs.Last(ctx, w.ns, w.ns, "network")
	if err != nil || !ok || last.Result != history.ResultFailed || last.Note != controller.NoteRunnerPodRefused || !strings.Contains(last.Error, class) {
		t.Errorf("network's last run = %+v, %v, %v, want a failed run noting its refused runner pod, its error naming %s", last, ok, err, class)
	}

	// Within its retryInterval, the next pass starts no Job.
	if err := ctrl.Reconcile(ctx, w.ns); err != nil {
		t.Fatalf("Reconcile(%s) again = %v", w.ns, err)
	}
	got = w.get("network")
	c = condition(got, v1alpha2.ConditionReady)
	if c.Status != metav1.ConditionFalse || c.Reason != controller.ReasonRunnerPodRefused || !strings.Contains(c.Message, "retried 1h0m0s after it (spec.retryInterval)") {
		t.Errorf("network Ready within its retryInterval = %s, want False %s, saying when it is retried", ready(got), controller.ReasonRunnerPodRefused)
	}
	if list := w.runnerJobs(ctx); len(list) != 0 {
		t.Errorf("runner jobs of a pass within network's retryInterval = %v, want none", list)
	}
}

// runnerJobs are the names of the world's runner Jobs.
func (w *world) runnerJobs(ctx context.Context) []string {
	w.t.Helper()
	list, err := w.c.Client.BatchV1().Jobs(w.ns).List(ctx, metav1.ListOptions{LabelSelector: jobs.LabelRunner + "=true"})
	if err != nil {
		w.t.Fatal(err)
	}
	var names []string
	for _, j := range list.Items {
		names = append(names, j.Name)
	}
	return names
}
