package controller

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/strata-iac/strata/orchestrator/kube/api/v1alpha2"
	"github.com/strata-iac/strata/orchestrator/tcdata"
)

// SecretWriter writes a Secret owned by a Terraform object (Cluster's
// WriteSecret; kube.Client is one).
type SecretWriter interface {
	WriteSecret(ctx context.Context, owner *v1alpha2.Terraform, name string, labels, annotations map[string]string, data map[string][]byte) (bool, error)
}

// SavePlan returns what keeps each plan a run of the object makes where
// the Tofu Controller keeps it (runner.Request's SavePlan): the Secret
// tfplan-<workspace>-<name> of its namespace, owned by the object, the
// plan gzipped under "tfplan", its id in the savedPlan annotation. tfctl
// show plan and review bots read it there.
func SavePlan(w SecretWriter, owner *v1alpha2.Terraform) func(ctx context.Context, planID string, plan []byte) error {
	return func(ctx context.Context, planID string, plan []byte) error {
		s, err := tcdata.PlanSecret(owner.Spec.Workspace, owner.Name, planID, plan)
		if err != nil {
			return err
		}
		if _, err := w.WriteSecret(ctx, owner, s.Name, s.Labels, s.Annotations, s.Data); err != nil {
			return fmt.Errorf("write plan Secret %s/%s: %w", owner.Namespace, s.Name, err)
		}
		return nil
	}
}

// Owner is the Terraform object the request runs, as far as the request
// knows it: what a run's Secrets are owned by.
func (r Request) Owner() *v1alpha2.Terraform {
	return &v1alpha2.Terraform{
		ObjectMeta: metav1.ObjectMeta{Namespace: r.Namespace, Name: r.Name, UID: r.UID},
		Spec:       r.Spec,
	}
}
