package jobs

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// cleanup deletes the Job, its pod and its request Secret once the
// outcome is read, unless the object keeps its runner pod
// (alwaysCleanupRunnerPod: false), whose Job is then marked read
// (AnnotationRead) and left for its TTL: no runner pod persists, and no
// leader adopts an outcome already read.
func (l *Launcher) cleanup(ctx context.Context, r *run) error {
	if r.spec.Pod.KeepAfterRun {
		patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:"true"}}}`, AnnotationRead)
		_, err := l.client.BatchV1().Jobs(r.spec.Namespace).Patch(ctx, r.name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("mark job read: %w", err)
		}
		return nil
	}
	bg := metav1.DeletePropagationBackground
	err := l.client.BatchV1().Jobs(r.spec.Namespace).Delete(ctx, r.name, metav1.DeleteOptions{PropagationPolicy: &bg})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete job: %w", err)
	}
	err = l.client.CoreV1().Secrets(r.spec.Namespace).Delete(ctx, r.name, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete request secret: %w", err)
	}
	return nil
}
