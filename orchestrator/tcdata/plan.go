package tcdata

import (
	"bytes"
	"compress/gzip"
	"fmt"
)

// The keys of a plan Secret, as the Tofu Controller writes them.
const (
	// PlanKey holds the plan file, gzipped.
	PlanKey = "tfplan"
	// SavedPlanAnnotation is the id of the plan the Secret holds.
	SavedPlanAnnotation = "savedPlan"
	// EncodingAnnotation says how the plan is encoded: "gzip".
	EncodingAnnotation = "encoding"
	// PlanNameLabel and PlanWorkspaceLabel select an object's plan
	// Secrets; the annotations keep the names whole, which a label value
	// may not hold.
	PlanNameLabel           = "infra.contrib.fluxcd.io/plan-name"
	PlanWorkspaceLabel      = "infra.contrib.fluxcd.io/plan-workspace"
	PlanFullNameAnnotation  = "infra.contrib.fluxcd.io/plan-full-name"
	PlanFullWorkspaceAnnot  = "infra.contrib.fluxcd.io/plan-full-workspace"
	defaultWorkspace        = "default"
	maxLabelValue           = 63
	maxPlanSecretDataLength = 1 << 20
)

// Plan is the plan Secret of one object: its name, labels, annotations
// and data.
type Plan struct {
	Name        string
	Labels      map[string]string
	Annotations map[string]string
	Data        map[string][]byte
}

// PlanSecretName is the name of an object's plan Secret:
// tfplan-<workspace>-<name>, the workspace "default" when unset.
func PlanSecretName(workspace, name string) string {
	if workspace == "" {
		workspace = defaultWorkspace
	}
	return "tfplan-" + workspace + "-" + name
}

// PlanSecret is the Secret in which the Tofu Controller keeps the plan
// planID of the object name (spec.workspace workspace): the plan file
// gzipped under "tfplan", annotated savedPlan and encoding. A plan that
// does not fit one Secret (1 MiB, gzipped) is an error.
func PlanSecret(workspace, name, planID string, plan []byte) (Plan, error) {
	if workspace == "" {
		workspace = defaultWorkspace
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(plan); err != nil {
		return Plan{}, fmt.Errorf("gzip plan %s: %w", planID, err)
	}
	if err := zw.Close(); err != nil {
		return Plan{}, fmt.Errorf("gzip plan %s: %w", planID, err)
	}
	if buf.Len() > maxPlanSecretDataLength {
		return Plan{}, fmt.Errorf("plan %s of Terraform/%s is %d bytes gzipped, more than a Secret holds (%d)", planID, name, buf.Len(), maxPlanSecretDataLength)
	}
	return Plan{
		Name: PlanSecretName(workspace, name),
		Labels: map[string]string{
			PlanNameLabel:      truncate(name),
			PlanWorkspaceLabel: truncate(workspace),
		},
		Annotations: map[string]string{
			SavedPlanAnnotation:    planID,
			EncodingAnnotation:     "gzip",
			PlanFullNameAnnotation: name,
			PlanFullWorkspaceAnnot: workspace,
		},
		Data: map[string][]byte{PlanKey: buf.Bytes()},
	}, nil
}

// truncate cuts a name to what a label value holds.
func truncate(s string) string {
	if len(s) > maxLabelValue {
		return s[:maxLabelValue]
	}
	return s
}
