package jobs

import (
	"context"
	"fmt"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// AnnotationRead marks a runner Job kept after its run
// (alwaysCleanupRunnerPod: false) whose outcome a leader read. A Job that
// finished without it, and is not being deleted, has an outcome no leader
// read: its leader stopped before it could.
const AnnotationRead = "strata.dev/outcome-read"

// adopt finds the Job that already runs this run, or another run of the
// same object still in flight or finished with its outcome unread, and
// follows it instead of starting one: a leader that takes over never
// starts a second run of a stack whose run its predecessor left going,
// and reads the outcome of one its predecessor left finished.
func (l *Launcher) adopt(ctx context.Context, r *run) error {
	jobs := l.client.BatchV1().Jobs(r.spec.Namespace)
	j, err := jobs.Get(ctx, r.name, metav1.GetOptions{})
	switch {
	case err == nil:
		r.adopt(l, j, "this run's")
		return nil
	case !apierrors.IsNotFound(err):
		return fmt.Errorf("read job: %w", err)
	}
	j, err = l.unread(ctx, r.spec.Namespace, r.spec.Object)
	if err != nil || j == nil {
		return err
	}
	r.adopt(l, j, "another run's")
	return nil
}

// Unread reports whether a runner Job of the object is in flight, or
// finished with an outcome no leader read: a run that Run would adopt
// rather than start.
func (l *Launcher) Unread(ctx context.Context, namespace, object string) (bool, error) {
	j, err := l.unread(ctx, namespace, object)
	if err != nil {
		return false, fmt.Errorf("runner jobs of %s/%s: %w", namespace, object, err)
	}
	return j != nil, nil
}

// unread is the object's runner Job in flight, else its newest finished
// Job whose outcome no leader read; nil when there is none.
func (l *Launcher) unread(ctx context.Context, namespace, object string) (*batchv1.Job, error) {
	list, err := l.client.BatchV1().Jobs(namespace).List(ctx, metav1.ListOptions{LabelSelector: labels.SelectorFromSet(labels.Set{
		LabelRunner: "true", LabelObject: object,
	}).String()})
	if err != nil {
		return nil, fmt.Errorf("list jobs of %s: %w", object, err)
	}
	var done *batchv1.Job
	for i := range list.Items {
		j := &list.Items[i]
		switch {
		case j.DeletionTimestamp != nil:
		case !finished(j):
			return j, nil
		case j.Annotations[AnnotationRead] == "" && (done == nil || done.CreationTimestamp.Before(&j.CreationTimestamp)):
			done = j
		}
	}
	return done, nil
}

// adopt makes j the run's Job.
func (r *run) adopt(l *Launcher, j *batchv1.Job, whose string) {
	r.name, r.adopted = j.Name, true
	r.out.Job, r.out.Adopted = j.Name, true
	state := "in flight"
	if finished(j) {
		state = "finished"
	}
	l.cfg.Logger.Info(fmt.Sprintf("adopting %s runner job %s, started %s, %s", whose, j.Name,
		j.CreationTimestamp.UTC().Format("2006-01-02T15:04:05Z"), state), "stack", r.spec.Object)
}

// finished reports whether a Job ended: it has a Complete or Failed
// condition (set once its pod is gone from running).
func finished(j *batchv1.Job) bool {
	for _, c := range j.Status.Conditions {
		if (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}
