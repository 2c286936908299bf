package v1alpha2

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// TerraformStatus is what the controller observed and did, in the Tofu
// Controller's fields.
type TerraformStatus struct {
	// LastHandledReconcileAt is the value of the
	// reconcile.fluxcd.io/requestedAt annotation last handled.
	// +optional
	LastHandledReconcileAt string `json:"lastHandledReconcileAt,omitempty"`
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Conditions are Ready, Plan, Apply and Output.
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// LastAppliedRevision is the source revision last applied.
	// +optional
	LastAppliedRevision string `json:"lastAppliedRevision,omitempty"`
	// LastAttemptedRevision is the source revision last reconciled.
	// +optional
	LastAttemptedRevision string `json:"lastAttemptedRevision,omitempty"`
	// LastPlannedRevision is the source revision last planned.
	// +optional
	LastPlannedRevision string `json:"lastPlannedRevision,omitempty"`
	// +optional
	LastPlanAt *metav1.Time `json:"lastPlanAt,omitempty"`
	// LastPlannedGeneration is the object's generation last planned.
	// +optional
	LastPlannedGeneration int64 `json:"lastPlannedGeneration,omitempty"`
	// +optional
	LastDriftDetectedAt *metav1.Time `json:"lastDriftDetectedAt,omitempty"`
	// +optional
	LastAppliedByDriftDetectionAt *metav1.Time `json:"lastAppliedByDriftDetectionAt,omitempty"`
	// AvailableOutputs are the names of the module's outputs.
	// +optional
	AvailableOutputs []string `json:"availableOutputs,omitempty"`
	// +optional
	Plan PlanStatus `json:"plan,omitempty"`
	// +optional
	Inventory *ResourceInventory `json:"inventory,omitempty"`
	// +optional
	Lock LockStatus `json:"lock,omitempty"`
	// +optional
	ReconciliationFailures int64 `json:"reconciliationFailures,omitempty"`
}

// PlanStatus is the plan waiting for approval and the one last applied.
type PlanStatus struct {
	// +optional
	LastApplied string `json:"lastApplied,omitempty"`
	// Pending is the id of the plan held for approval: set approvePlan
	// to it to apply the plan.
	// +optional
	Pending string `json:"pending,omitempty"`
	// +optional
	IsDestroyPlan bool `json:"isDestroyPlan,omitempty"`
	// +optional
	IsDriftDetectionPlan bool `json:"isDriftDetectionPlan,omitempty"`
}

// LockStatus is the state lock last seen.
type LockStatus struct {
	// +optional
	LastApplied string `json:"lastApplied,omitempty"`
	// +optional
	Pending string `json:"pending,omitempty"`
}

// ResourceInventory lists the resources in state.
type ResourceInventory struct {
	// +optional
	Entries []ResourceRef `json:"entries,omitempty"`
}

// ResourceRef is one resource in state.
type ResourceRef struct {
	// Name is the resource's address.
	// +required
	Name string `json:"n"`
	// Type is the resource's type.
	// +required
	Type string `json:"t"`
	// Identifier is the resource's id.
	// +optional
	Identifier string `json:"id,omitempty"`
}

// The condition types the Tofu Controller writes.
const (
	ConditionReady  = "Ready"
	ConditionPlan   = "Plan"
	ConditionApply  = "Apply"
	ConditionOutput = "Output"
	// ConditionHealthCheck says what the health checks
	// (spec.healthChecks) found after the last apply.
	ConditionHealthCheck = "HealthCheck"
	// ConditionStateLocked says the state's lock is held by another
	// (True, LockHeld), or was released (False, ForceUnlock).
	ConditionStateLocked = "StateLocked"
)

// The condition reasons of the Tofu Controller that strata writes.
const (
	ReasonProgressing               = "Progressing"
	ReasonPostPlanningWebhookFailed = "PostPlanningWebhookFailed"
	ReasonHealthChecksFailed        = "HealthChecksFailed"
	ReasonHealthChecksSucceeded     = "HealthChecksSucceed"
	ReasonArtifactFailed            = "ArtifactFailed"
	ReasonDependencyNotReady        = "DependencyNotReady"
	ReasonPlannedNoChanges          = "TerraformPlannedNoChanges"
	ReasonPlannedWithChanges        = "TerraformPlannedWithChanges"
	ReasonPlanFailed                = "TFExecPlanFailed"
	ReasonApplySucceeded            = "TerraformAppliedSucceed"
	ReasonApplyFailed               = "TFExecApplyFailed"
	ReasonAppliedFail               = "TerraformAppliedFail"
	ReasonOutputsAvailable          = "TerraformOutputsAvailable"
	ReasonOutputsWritten            = "TerraformOutputsWritten"
	ReasonOutputsWritingFailed      = "OutputsWritingFailed"
	ReasonVarsGenerationFailed      = "VarsGenerationFailed"
	ReasonNoDrift                   = "NoDrift"
	ReasonDriftDetected             = "DriftDetected"
	ReasonLockHeld                  = "LockHeld"
	ReasonForceUnlock               = "ForceUnlock"
	// ReasonAccessDenied: a reference the controller was started to refuse,
	// such as a cross-namespace spec.sourceRef.
	ReasonAccessDenied = "AccessDenied"
)

// Values and names the Tofu Controller defines.
const (
	// Finalizer keeps a Terraform object until its deletion is handled.
	Finalizer = "finalizers.tf.contrib.fluxcd.io"
	// ApprovePlanAuto in spec.approvePlan applies every plan the policy
	// allows.
	ApprovePlanAuto = "auto"
	// ApprovePlanDisable in spec.approvePlan is drift detection only:
	// planned, never applied.
	ApprovePlanDisable = "disable"
	// DefaultWorkspace is spec.workspace when it is empty.
	DefaultWorkspace = "default"
	// DefaultServiceAccount is spec.serviceAccountName when it is empty.
	DefaultServiceAccount = "tf-runner"
	// ReconcileRequestAnnotation asks for a reconcile now (flux reconcile).
	ReconcileRequestAnnotation = "reconcile.fluxcd.io/requestedAt"
)
