package jobs

import (
	"context"
	"fmt"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// wait waits for the Job to finish and reads the outcome: the runner
// container's exit code and termination message, and the Job's reason
// when it failed. A Job whose runner never ran to its end has an outcome
// all the same: exit code -1 and the Job's reason.
func (l *Launcher) wait(ctx context.Context, r *run) error {
	var j *batchv1.Job
	for {
		var err error
		j, err = l.client.BatchV1().Jobs(r.spec.Namespace).Get(ctx, r.name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) && len(r.out.Result) > 0 {
			// Removed once finished (its backstop TTL), after its log
			// gave the whole outcome: that is the outcome; the exit
			// code went with the pod.
			r.out.ExitCode = -1
			return nil
		}
		if err != nil {
			return fmt.Errorf("read job: %w", err)
		}
		if finished(j) {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for the job: %w", context.Cause(ctx))
		case <-time.After(l.cfg.Poll):
		}
	}
	r.out.ExitCode = -1
	for _, c := range j.Status.Conditions {
		if c.Type == batchv1.JobFailed && c.Status == corev1.ConditionTrue {
			r.out.Reason = c.Reason
		}
	}
	term, err := l.terminated(ctx, r)
	if err != nil {
		return err
	}
	if term == nil {
		return nil
	}
	r.out.ExitCode = int(term.ExitCode)
	r.out.Message = []byte(term.Message)
	r.out.Succeeded = term.ExitCode == 0
	if !r.out.Succeeded && r.out.Reason == "" {
		r.out.Reason = term.Reason
	}
	return nil
}

// terminated is the runner container's end, from the Job's pods; nil when
// no pod ran it to its end.
func (l *Launcher) terminated(ctx context.Context, r *run) (*corev1.ContainerStateTerminated, error) {
	pods, err := l.client.CoreV1().Pods(r.spec.Namespace).List(ctx, metav1.ListOptions{LabelSelector: "batch.kubernetes.io/job-name=" + r.name})
	if err != nil {
		return nil, fmt.Errorf("read the runner pod: %w", err)
	}
	for i := range pods.Items {
		for _, s := range pods.Items[i].Status.ContainerStatuses {
			if s.Name == Container && s.State.Terminated != nil {
				return s.State.Terminated, nil
			}
		}
	}
	return nil, nil
}

func orUnknown(s string) string {
	if s == "" {
		return "no reason given"
	}
	return s
}
