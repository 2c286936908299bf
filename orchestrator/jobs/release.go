package jobs

import (
	"context"
	"fmt"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Release lets a finished runner Job go once the outcome Run reported is
// recorded (the object's status and Event written): it deletes the Job,
// its pod and its request Secret, or, when the object keeps its runner
// pod (keep: alwaysCleanupRunnerPod: false), marks it read
// (AnnotationRead) and gives it a ttlSecondsAfterFinished that ends TTL
// from now. Until then the Job has no TTL and stays unread, so that a
// leader lost before it recorded the outcome leaves a Job the next one
// adopts. A Job already gone is released.
func (l *Launcher) Release(ctx context.Context, namespace, job string, keep bool) error {
	if err := l.release(ctx, namespace, job, keep); err != nil {
		return fmt.Errorf("release runner job %s/%s: %w", namespace, job, err)
	}
	return nil
}

func (l *Launcher) release(ctx context.Context, namespace, job string, keep bool) error {
	jobs := l.client.BatchV1().Jobs(namespace)
	if keep {
		j, err := jobs.Get(ctx, job, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			return nil
		case err != nil:
			return fmt.Errorf("read job: %w", err)
		}
		patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:"true"}},"spec":{"ttlSecondsAfterFinished":%d}}`,
			AnnotationRead, keptFor(j, l.cfg.TTL, time.Now()))
		_, err = jobs.Patch(ctx, job, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("mark job read: %w", err)
		}
		return nil
	}
	bg := metav1.DeletePropagationBackground
	err := jobs.Delete(ctx, job, metav1.DeleteOptions{PropagationPolicy: &bg})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete job: %w", err)
	}
	err = l.client.CoreV1().Secrets(namespace).Delete(ctx, job, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete request secret: %w", err)
	}
	return nil
}

// keptFor is the ttlSecondsAfterFinished that keeps a finished Job for
// ttl from now: Kubernetes counts it from when the Job finished.
func keptFor(j *batchv1.Job, ttl time.Duration, now time.Time) int32 {
	since := time.Duration(0)
	if at := finishedAt(j); !at.IsZero() && now.After(at) {
		since = now.Sub(at)
	}
	return seconds(since + ttl)
}

// finishedAt is when a Job finished: its Complete or Failed condition's
// transition; zero when it has not.
func finishedAt(j *batchv1.Job) time.Time {
	for _, c := range j.Status.Conditions {
		if (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) && c.Status == corev1.ConditionTrue {
			return c.LastTransitionTime.Time
		}
	}
	return time.Time{}
}

// ReleaseOrphans deletes the finished runner Jobs of the launcher's shard
// in the namespace whose Terraform object gone reports gone: no leader
// will record their outcome, and waiting for their backstop TTL would keep
// them for nothing. A Job of a gone object still in flight is left until
// it finishes: a later call deletes it. Another shard's Jobs are left to
// it, and so is a Job whose object moved to another shard: gone says it is
// there, and that shard adopts it.
func (l *Launcher) ReleaseOrphans(ctx context.Context, namespace string, gone func(ctx context.Context, object string) (bool, error)) error {
	list, err := l.client.BatchV1().Jobs(namespace).List(ctx, metav1.ListOptions{LabelSelector: l.runnerSelector()})
	if err != nil {
		return fmt.Errorf("release the runner jobs of gone objects in %s: list jobs: %w", namespace, err)
	}
	for i := range list.Items {
		j := &list.Items[i]
		if j.DeletionTimestamp != nil || !finished(j) {
			continue
		}
		object := j.Labels[LabelObject]
		if ok, err := gone(ctx, object); err != nil || !ok {
			if err != nil {
				return fmt.Errorf("release the runner jobs of gone objects in %s: %w", namespace, err)
			}
			continue
		}
		l.cfg.Logger.Info(fmt.Sprintf("removing runner job %s/%s: Terraform/%s is gone", namespace, j.Name, object))
		if err := l.Release(ctx, namespace, j.Name, false); err != nil {
			return err
		}
	}
	return nil
}
