package jobs

import (
	"context"
	"fmt"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// start waits for a runner slot, then creates the request Secret and the
// Job, and makes the Job the Secret's owner. A run adopted needs none.
func (l *Launcher) start(ctx context.Context, r *run) error {
	if r.adopted {
		return nil
	}
	r.out.Job = r.name
	waited := false
	for {
		ok, err := l.startIfFree(ctx, r)
		if err != nil || ok {
			return err
		}
		if !waited {
			l.cfg.Logger.Info(fmt.Sprintf("waiting for a runner: %d runner jobs are in flight (--max-runners)", l.cfg.MaxRunners),
				"stack", r.spec.Object)
			waited = true
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for a runner: %w", context.Cause(ctx))
		case <-time.After(l.cfg.Poll):
		}
	}
}

// startIfFree creates the run's Job when fewer than MaxRunners runner Jobs
// of the launcher's shard are in flight in the whole cluster, and reports
// whether it did.
func (l *Launcher) startIfFree(ctx context.Context, r *run) (bool, error) {
	l.slotMu.Lock()
	defer l.slotMu.Unlock()
	n, err := l.inFlight(ctx)
	if err != nil {
		return false, err
	}
	if n >= l.cfg.MaxRunners {
		return false, nil
	}
	return true, l.create(ctx, r)
}

// inFlight counts the runner Jobs of the launcher's shard that have not
// finished, in every namespace.
func (l *Launcher) inFlight(ctx context.Context) (int, error) {
	list, err := l.client.BatchV1().Jobs(metav1.NamespaceAll).List(ctx, metav1.ListOptions{LabelSelector: l.runnerSelector()})
	if err != nil {
		return 0, fmt.Errorf("count runner jobs: %w", err)
	}
	n := 0
	for i := range list.Items {
		if !finished(&list.Items[i]) {
			n++
		}
	}
	return n, nil
}

// create creates the request Secret, then the Job, then sets the Job as
// the Secret's owner. A Secret or Job already there (a create that an
// earlier leader began) is taken as it is.
func (l *Launcher) create(ctx context.Context, r *run) error {
	secrets := l.client.CoreV1().Secrets(r.spec.Namespace)
	if name := l.cfg.EnvFromSecret; name != "" {
		// Without it the pod would wait in CreateContainerConfigError
		// until the Job's deadline.
		if _, err := secrets.Get(ctx, name, metav1.GetOptions{}); err != nil {
			return fmt.Errorf("runner environment secret %s/%s: %w: create it in the namespace, or leave out --runner-env-from-secret", r.spec.Namespace, name, err)
		}
	}
	if _, err := secrets.Create(ctx, l.requestSecret(r.spec, r.name), metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create request secret: %w", err)
	}
	j, err := l.client.BatchV1().Jobs(r.spec.Namespace).Create(ctx, l.job(r.spec, r.name), metav1.CreateOptions{})
	switch {
	case apierrors.IsAlreadyExists(err):
		r.adopted, r.out.Adopted = true, true
		return nil
	case err != nil:
		return fmt.Errorf("create job: %w", err)
	}
	if err := l.own(ctx, r, j); err != nil {
		return err
	}
	l.cfg.Logger.Debug("started runner job "+j.Name, "stack", r.spec.Object)
	return nil
}

// own makes the Job the owner of its request Secret, so that deleting the
// Job (or its TTL) deletes the Secret.
func (l *Launcher) own(ctx context.Context, r *run, j *batchv1.Job) error {
	patch := fmt.Sprintf(`{"metadata":{"ownerReferences":[{"apiVersion":"batch/v1","kind":"Job","name":%q,"uid":%q}]}}`, j.Name, j.UID)
	if _, err := l.client.CoreV1().Secrets(r.spec.Namespace).Patch(ctx, r.name, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		return fmt.Errorf("own request secret: %w", err)
	}
	return nil
}
