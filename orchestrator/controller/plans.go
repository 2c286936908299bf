package controller

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/tcdata"
)

// PlanWriter writes the Secrets and ConfigMaps a run leaves in its
// object's namespace, owned by the object (Cluster's; kube.Client is
// one).
type PlanWriter interface {
	WriteSecret(ctx context.Context, owner *v1alpha2.Terraform, name string, labels, annotations map[string]string, data map[string][]byte) (bool, error)
	WriteConfigMap(ctx context.Context, owner *v1alpha2.Terraform, name string, labels, annotations map[string]string, data map[string]string) (bool, error)
}

// SavePlan returns what keeps each plan a run of the object makes where
// the Tofu Controller keeps it (runner.Request's SavePlan), owned by the
// object: the Secret tfplan-<workspace>-<name>, the plan file gzipped
// under "tfplan", its id in the savedPlan annotation; and, as
// spec.storeReadablePlan asks, the ConfigMap of that name holding the
// plan as tofu show prints it (human), or the Secret
// tfplan-<workspace>-<name>.json holding its JSON (json). tfctl show plan
// and review bots read them there.
func SavePlan(w PlanWriter, owner *v1alpha2.Terraform) func(ctx context.Context, p runner.SavedPlan) error {
	return func(ctx context.Context, p runner.SavedPlan) error {
		ws := owner.Spec.Workspace
		s, err := tcdata.PlanSecret(ws, owner.Name, p.ID, "", p.File)
		if err != nil {
			return err
		}
		if err := writeSecret(ctx, w, owner, s); err != nil {
			return err
		}
		human, json := tcdata.ReadablePlan(owner.Spec.StoreReadablePlan)
		switch {
		case json && p.JSON == nil:
			// A plan without changes is not shown as JSON (no second
			// tofu process for it): its readable copy is not written.
		case json:
			s, err := tcdata.PlanSecret(ws, owner.Name, p.ID, tcdata.JSONPlanSuffix, p.JSON)
			if err != nil {
				return err
			}
			return writeSecret(ctx, w, owner, s)
		case human:
			text, err := p.Text(ctx)
			if err != nil {
				return err
			}
			cm, err := tcdata.PlanConfigMap(ws, owner.Name, p.ID, text)
			if err != nil {
				return err
			}
			data := map[string]string{tcdata.PlanKey: string(cm.Data[tcdata.PlanKey])}
			if _, err := w.WriteConfigMap(ctx, owner, cm.Name, cm.Labels, cm.Annotations, data); err != nil {
				return fmt.Errorf("write plan ConfigMap %s/%s: %w", owner.Namespace, cm.Name, err)
			}
		}
		return nil
	}
}

// writeSecret writes one plan Secret.
func writeSecret(ctx context.Context, w PlanWriter, owner *v1alpha2.Terraform, s tcdata.Plan) error {
	if _, err := w.WriteSecret(ctx, owner, s.Name, s.Labels, s.Annotations, s.Data); err != nil {
		return fmt.Errorf("write plan Secret %s/%s: %w", owner.Namespace, s.Name, err)
	}
	return nil
}

// deletePlans deletes what SavePlan wrote of the object.
func (c *Controller) deletePlans(ctx context.Context, tf *v1alpha2.Terraform) error {
	ws := tf.Spec.Workspace
	for _, name := range []string{tcdata.PlanSecretName(ws, tf.Name, ""), tcdata.PlanSecretName(ws, tf.Name, tcdata.JSONPlanSuffix)} {
		if err := c.cfg.Cluster.DeleteSecret(ctx, tf.Namespace, name); err != nil {
			return err
		}
	}
	return c.cfg.Cluster.DeleteConfigMap(ctx, tf.Namespace, tcdata.PlanSecretName(ws, tf.Name, ""))
}

// Owner is the Terraform object the request runs, as far as the request
// knows it: what a run's Secrets are owned by.
func (r Request) Owner() *v1alpha2.Terraform {
	return &v1alpha2.Terraform{
		ObjectMeta: metav1.ObjectMeta{Namespace: r.Namespace, Name: r.Name, UID: r.UID},
		Spec:       r.Spec,
	}
}
