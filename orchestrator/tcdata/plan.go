package tcdata

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
)

// The keys of a plan Secret or ConfigMap, as the Tofu Controller writes
// them (its api/plan).
const (
	// PlanKey holds the plan: the plan file gzipped in a Secret, its
	// text in a ConfigMap.
	PlanKey = "tfplan"
	// SavedPlanAnnotation is the id of the plan the object holds.
	SavedPlanAnnotation = "savedPlan"
	// EncodingAnnotation says how a Secret's plan is encoded: "gzip".
	EncodingAnnotation = "encoding"
	// PlanNameLabel and PlanWorkspaceLabel select an object's plans
	// (SafeLabelValue of the name and the workspace); the annotations keep
	// them whole, and PlanHashAnnotation is the SHA-256 of the plan.
	PlanNameLabel               = "infra.contrib.fluxcd.io/plan-name"
	PlanWorkspaceLabel          = "infra.contrib.fluxcd.io/plan-workspace"
	PlanFullNameAnnotation      = "infra.contrib.fluxcd.io/plan-full-name"
	PlanFullWorkspaceAnnotation = "infra.contrib.fluxcd.io/plan-full-workspace"
	PlanHashAnnotation          = "infra.contrib.fluxcd.io/plan-hash"
	defaultWorkspace            = "default"
	maxLabelValue               = 63
	maxPlanDataBytes            = 1 << 20
	JSONPlanSuffix              = ".json"
	readablePlanHuman           = "human"
	readablePlanJSON            = "json"
)

// Plan is a plan Secret or ConfigMap of one object: its name, labels,
// annotations and data.
type Plan struct {
	Name        string
	Labels      map[string]string
	Annotations map[string]string
	Data        map[string][]byte
}

// PlanSecretName is the name of an object's plan Secret (or, with
// storeReadablePlan: human, ConfigMap): tfplan-<workspace>-<name><suffix>,
// the workspace "default" when unset; suffix is "" or JSONPlanSuffix.
func PlanSecretName(workspace, name, suffix string) string {
	if workspace == "" {
		workspace = defaultWorkspace
	}
	return "tfplan-" + workspace + "-" + name + suffix
}

// PlanSecret is the Secret in which the Tofu Controller keeps the plan
// planID of the object name (spec.workspace workspace): plan gzipped under
// "tfplan", annotated savedPlan and encoding. suffix is "" for the plan
// file, JSONPlanSuffix for its JSON (storeReadablePlan: json). A plan that
// does not fit one Secret (1 MiB gzipped) is an error: the Tofu
// Controller splits it into chunks, which strata does not write.
func PlanSecret(workspace, name, planID, suffix string, plan []byte) (Plan, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(plan); err != nil {
		return Plan{}, fmt.Errorf("gzip plan %s: %w", planID, err)
	}
	if err := zw.Close(); err != nil {
		return Plan{}, fmt.Errorf("gzip plan %s: %w", planID, err)
	}
	if buf.Len() > maxPlanDataBytes {
		return Plan{}, fmt.Errorf("plan %s of Terraform/%s is %d bytes gzipped, more than a Secret holds (%d)", planID, name, buf.Len(), maxPlanDataBytes)
	}
	p := planObject(workspace, name, planID, suffix, plan)
	p.Annotations[EncodingAnnotation] = "gzip"
	p.Data = map[string][]byte{PlanKey: buf.Bytes()}
	return p, nil
}

// PlanConfigMap is the ConfigMap in which the Tofu Controller keeps the
// plan planID for people to read (storeReadablePlan: human): text, as
// tofu show prints it, under "tfplan".
func PlanConfigMap(workspace, name, planID string, text []byte) (Plan, error) {
	if len(text) > maxPlanDataBytes {
		return Plan{}, fmt.Errorf("plan %s of Terraform/%s is %d bytes of text, more than a ConfigMap holds (%d)", planID, name, len(text), maxPlanDataBytes)
	}
	p := planObject(workspace, name, planID, "", text)
	p.Data = map[string][]byte{PlanKey: text}
	return p, nil
}

// planObject is a plan object without its data.
func planObject(workspace, name, planID, suffix string, plan []byte) Plan {
	if workspace == "" {
		workspace = defaultWorkspace
	}
	return Plan{
		Name: PlanSecretName(workspace, name, suffix),
		Labels: map[string]string{
			PlanNameLabel:      SafeLabelValue(name + suffix),
			PlanWorkspaceLabel: SafeLabelValue(workspace),
		},
		Annotations: map[string]string{
			SavedPlanAnnotation:         planID,
			PlanFullNameAnnotation:      name + suffix,
			PlanFullWorkspaceAnnotation: workspace,
			PlanHashAnnotation:          fmt.Sprintf("%x", sha256.Sum256(plan)),
		},
	}
}

// SafeLabelValue is value as a label value, as the Tofu Controller makes
// it: unchanged up to 63 characters, else cut and ended with a dash and
// the first 8 bytes of its SHA-256 in hex, 63 characters in all.
func SafeLabelValue(value string) string {
	if len(value) <= maxLabelValue {
		return value
	}
	sum := sha256.Sum256([]byte(value))
	tail := fmt.Sprintf("-%x", sum[:8])
	return value[:maxLabelValue-len(tail)] + tail
}

// ReadablePlan says which readable copy of its plans an object's
// spec.storeReadablePlan asks for: "human" a ConfigMap of the text, "json"
// a Secret of the JSON; anything else none.
func ReadablePlan(store string) (human, json bool) {
	return store == readablePlanHuman, store == readablePlanJSON
}
