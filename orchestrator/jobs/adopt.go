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

// adopt finds the Job that already runs this run, or another run of the
// same object still in flight, and follows it instead of starting one: a
// leader that takes over never starts a second run of a stack whose run
// its predecessor left going.
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
	list, err := jobs.List(ctx, metav1.ListOptions{LabelSelector: labels.SelectorFromSet(labels.Set{
		LabelRunner: "true", LabelObject: r.spec.Object,
	}).String()})
	if err != nil {
		return fmt.Errorf("list jobs of %s: %w", r.spec.Object, err)
	}
	for i := range list.Items {
		if j := &list.Items[i]; !finished(j) && j.DeletionTimestamp == nil {
			r.adopt(l, j, "another run's")
			return nil
		}
	}
	return nil
}

// adopt makes j the run's Job.
func (r *run) adopt(l *Launcher, j *batchv1.Job, whose string) {
	r.name, r.adopted = j.Name, true
	r.out.Job, r.out.Adopted = j.Name, true
	l.cfg.Logger.Info(fmt.Sprintf("adopting %s runner job %s, started %s", whose, j.Name,
		j.CreationTimestamp.UTC().Format("2006-01-02T15:04:05Z")), "stack", r.spec.Object)
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
