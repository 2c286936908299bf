package jobs

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// cleanup deletes the Job, its pod and its request Secret once the
// outcome is read, unless the object keeps its runner pod
// (alwaysCleanupRunnerPod: false): no runner pod persists.
func (l *Launcher) cleanup(ctx context.Context, r *run) error {
	if r.spec.Pod.KeepAfterRun {
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
