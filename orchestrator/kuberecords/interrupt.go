package kuberecords

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8slabels "k8s.io/apimachinery/pkg/labels"

	"github.com/strata-iac/strata/orchestrator/history"
)

// interrupt marks the runs still "running" as interrupted. Each update
// names the version it read: a run its writer recorded meanwhile keeps
// its result.
func (s *Store) interrupt(ctx context.Context, runs []stored) error {
	for _, st := range runs {
		if st.run.Result != history.ResultRunning {
			continue
		}
		cm, err := s.runConfigMap(st.run.MarkInterrupted())
		if err != nil {
			return err
		}
		cm.ResourceVersion = st.cm.ResourceVersion
		cm.Annotations = st.cm.Annotations
		_, err = s.client.CoreV1().ConfigMaps(s.namespace).Update(ctx, cm, metav1.UpdateOptions{})
		if err != nil && !apierrors.IsConflict(err) && !apierrors.IsNotFound(err) {
			return fmt.Errorf("mark run #%d interrupted: %w", st.run.Number, err)
		}
	}
	return nil
}

// Interrupt marks every run of the environment still "running" as
// interrupted, as the next writer of a history does: the leader calls it
// as it starts a reconcile, when no run of the environment can still be
// going. A run recorded meanwhile keeps its result.
func (s *Store) Interrupt(ctx context.Context, client, env string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("mark interrupted runs of %s/%s: %w", client, env, err)
	}
	sel := k8slabels.SelectorFromSet(map[string]string{labelRecord: recordRun, labelEnvHash: envHash(client, env)})
	list, err := s.client.CoreV1().ConfigMaps(s.namespace).List(ctx, metav1.ListOptions{LabelSelector: sel.String()})
	if err != nil {
		return fmt.Errorf("mark interrupted runs of %s/%s: %w", client, env, err)
	}
	var runs []stored
	for _, cm := range list.Items {
		r, err := decodeRun(cm)
		if err != nil {
			return fmt.Errorf("mark interrupted runs of %s/%s: %w", client, env, err)
		}
		if r.Client == client && r.Env == env {
			runs = append(runs, stored{run: r, cm: cm})
		}
	}
	if err := s.interrupt(ctx, runs); err != nil {
		return fmt.Errorf("mark interrupted runs of %s/%s: %w", client, env, err)
	}
	return nil
}
