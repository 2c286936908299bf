package jobs

import (
	"context"
	"fmt"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
)

// follow streams the runner's log lines into the logger as they come,
// until the runner container ends. A log that cannot be read (the pod was
// deleted, the node cannot be reached) is a warning: the outcome is still
// read from the Job.
func (l *Launcher) follow(ctx context.Context, r *run) error {
	pod, err := l.startedPod(ctx, r)
	if err != nil || pod == "" {
		return err
	}
	r.pod = pod
	req := l.client.CoreV1().Pods(r.spec.Namespace).GetLogs(pod, &corev1.PodLogOptions{Container: Container, Follow: true})
	stream, err := req.Stream(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		l.cfg.Logger.Warn(fmt.Sprintf("cannot read the log of runner pod %s: %v", pod, err), "stack", r.spec.Object)
		return nil
	}
	defer stream.Close()
	if r.out.Result, err = relay(ctx, stream, l.cfg.Logger, r.spec.Object); err != nil {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		l.cfg.Logger.Warn(fmt.Sprintf("the log of runner pod %s broke off: %v", pod, err), "stack", r.spec.Object)
	}
	return nil
}

// startedPod waits for the Job's pod to have started its runner (or ended
// it), and returns its name; "" when the Job finished without one.
//
// While the Job has no pod at all, it says why, once for each reason, in
// the log and to Spec.Progress: the job controller's FailedCreate Event
// (a PriorityClass or ServiceAccount that does not exist, a ResourceQuota
// that is full, an admission webhook that denies the pod), so that a run
// that cannot start is not silent. The Job is left as it is for a while:
// the job controller keeps trying, and its pod starts once the cause is
// fixed, which Spec.Progress is told too. A Job refused since it was
// created (it never had a pod) for Config.RefusedTimeout is deleted, with
// its request Secret, and the run given up: a *RefusedError. Nothing ran,
// so nothing was applied; the Job's creation time, not this leader's
// first look, starts the clock, so a leader that adopts a refused Job
// does not wait again from zero.
func (l *Launcher) startedPod(ctx context.Context, r *run) (string, error) {
	var said string
	for {
		pods, err := l.client.CoreV1().Pods(r.spec.Namespace).List(ctx, metav1.ListOptions{LabelSelector: "batch.kubernetes.io/job-name=" + r.name})
		if err != nil {
			return "", fmt.Errorf("find the runner pod: %w", err)
		}
		for i := range pods.Items {
			if p := &pods.Items[i]; started(p) {
				if said != "" {
					l.progress(r, "", "")
				}
				return p.Name, nil
			}
		}
		j, err := l.client.BatchV1().Jobs(r.spec.Namespace).Get(ctx, r.name, metav1.GetOptions{})
		if err != nil {
			return "", fmt.Errorf("read job: %w", err)
		}
		if finished(j) {
			return "", nil
		}
		if len(pods.Items) == 0 {
			reason, why := l.podNotCreated(ctx, r)
			if why != "" && why != said {
				l.cfg.Logger.Warn(fmt.Sprintf("runner job %s/%s cannot create its pod yet: %s; the run starts once that is fixed, or is given up %s after the job was created (--runner-pod-refused-timeout)",
					r.spec.Namespace, r.name, why, l.cfg.RefusedTimeout), "stack", r.spec.Object)
				l.progress(r, reason, why)
				said = why
			}
			if refused := time.Since(j.CreationTimestamp.Time); why != "" && refused >= l.cfg.RefusedTimeout {
				if err := l.giveUp(ctx, r, j, reason, why); err != nil {
					return "", err
				}
			}
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("wait for the runner pod: %w", context.Cause(ctx))
		case <-time.After(l.cfg.Poll):
		}
	}
}

// RefusedError is a run given up because the API server refused its
// runner pod for Config.RefusedTimeout: its Job was deleted, and nothing
// ran.
type RefusedError struct {
	// Job is the Job's name; Reason and Message the job controller's
	// last refusal (its FailedCreate Event).
	Job, Reason, Message string
	// Since is when the Job was created; For how long it had no pod.
	Since time.Time
	For   time.Duration
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("the API server refused its pod for %s (%s): %s; the job was deleted and nothing ran: fix the cause and the run is retried",
		e.For.Round(time.Second), e.Reason, e.Message)
}

// giveUp deletes a Job refused for too long, with its request Secret, and
// returns the *RefusedError that says so. The Job is deleted only as it
// was read, without a pod: a pod the job controller created meanwhile
// changes the Job's status, the delete then fails its precondition, and
// giveUp returns nil: startedPod looks again.
func (l *Launcher) giveUp(ctx context.Context, r *run, j *batchv1.Job, reason, why string) error {
	refused := &RefusedError{Job: r.name, Reason: reason, Message: why, Since: j.CreationTimestamp.Time, For: time.Since(j.CreationTimestamp.Time)}
	bg := metav1.DeletePropagationBackground
	err := l.client.BatchV1().Jobs(r.spec.Namespace).Delete(ctx, r.name, metav1.DeleteOptions{
		PropagationPolicy: &bg,
		Preconditions:     &metav1.Preconditions{UID: &j.UID, ResourceVersion: &j.ResourceVersion},
	})
	switch {
	case apierrors.IsConflict(err):
		return nil
	case err != nil && !apierrors.IsNotFound(err):
		return fmt.Errorf("give up the job, its pod refused for %s: delete job: %w", refused.For.Round(time.Second), err)
	}
	err = l.client.CoreV1().Secrets(r.spec.Namespace).Delete(ctx, r.name, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("give up the job, its pod refused for %s: delete request secret: %w", refused.For.Round(time.Second), err)
	}
	l.cfg.Logger.Error(fmt.Sprintf("runner job %s/%s: %s", r.spec.Namespace, r.name, refused), "stack", r.spec.Object)
	return refused
}

// started reports whether the runner container of p runs or ran.
func started(p *corev1.Pod) bool {
	for _, s := range p.Status.ContainerStatuses {
		if s.Name == Container && (s.State.Running != nil || s.State.Terminated != nil) {
			return true
		}
	}
	return false
}

// progress tells Spec.Progress, when there is one, of the run's pod.
func (l *Launcher) progress(r *run, reason, message string) {
	if r.spec.Progress != nil {
		r.spec.Progress(r.name, reason, message)
	}
}

// podNotCreated is the reason and message of the newest FailedCreate
// Event of the run's Job, or "" when there is none or the Events cannot be
// read.
func (l *Launcher) podNotCreated(ctx context.Context, r *run) (reason, message string) {
	evs, err := l.client.CoreV1().Events(r.spec.Namespace).List(ctx, metav1.ListOptions{FieldSelector: fields.Set{
		"involvedObject.kind": "Job", "involvedObject.name": r.name, "reason": "FailedCreate",
	}.String()})
	if err != nil || len(evs.Items) == 0 {
		return "", ""
	}
	newest := &evs.Items[0]
	for i := range evs.Items {
		if e := &evs.Items[i]; lastSeen(e).After(lastSeen(newest)) {
			newest = e
		}
	}
	return newest.Reason, newest.Message
}

// lastSeen is when an Event last happened.
func lastSeen(e *corev1.Event) time.Time {
	switch {
	case !e.LastTimestamp.IsZero():
		return e.LastTimestamp.Time
	case !e.EventTime.IsZero():
		return e.EventTime.Time
	}
	return e.CreationTimestamp.Time
}
