package v1alpha2

import (
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Terraform is one OpenTofu root module that the controller plans and
// applies: the Tofu Controller's object, read by strata unchanged.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:shortName=tf
// +kubebuilder:subresource:status
// +kubebuilder:storageversion
// +kubebuilder:printcolumn:name="Ready",type="string",JSONPath=".status.conditions[?(@.type==\"Ready\")].status",description=""
// +kubebuilder:printcolumn:name="Status",type="string",JSONPath=".status.conditions[?(@.type==\"Ready\")].message",description=""
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp",description=""
type Terraform struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec TerraformSpec `json:"spec,omitempty"`
	// +kubebuilder:default={"observedGeneration":-1}
	Status TerraformStatus `json:"status,omitempty"`
}

// TerraformList is a list of Terraform objects.
//
// +kubebuilder:object:root=true
type TerraformList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Terraform `json:"items"`
}

// TerraformSpec is what the user asks for.
type TerraformSpec struct {
	// ApprovePlan is "auto" (a plan the policy allows is applied), empty
	// (every plan with changes is held), or the id of a held plan to
	// apply.
	// +optional
	ApprovePlan string `json:"approvePlan,omitempty"`

	// Destroy asks for a plan that destroys every resource.
	// +optional
	Destroy bool `json:"destroy,omitempty"`

	// +optional
	BackendConfig *BackendConfigSpec `json:"backendConfig,omitempty"`

	// +optional
	BackendConfigsFrom []BackendConfigsReference `json:"backendConfigsFrom,omitempty"`

	// +optional
	Cloud *CloudSpec `json:"cloud,omitempty"`

	// +optional
	// +kubebuilder:default:=default
	Workspace string `json:"workspace,omitempty"`

	// Vars are input variables, by name.
	// +optional
	Vars []Variable `json:"vars,omitempty"`

	// VarsFrom reads variables from ConfigMaps and Secrets of the object's
	// namespace; later entries win.
	// +optional
	VarsFrom []VarsReference `json:"varsFrom,omitempty"`

	// Values is passed as the variable "values".
	// +optional
	Values *apiextensionsv1.JSON `json:"values,omitempty"`

	// +optional
	FileMappings []FileMapping `json:"fileMappings,omitempty"`

	// Interval is how often the object is reconciled.
	// +required
	Interval metav1.Duration `json:"interval"`

	// RetryInterval is how soon a failed reconcile is tried again.
	// +optional
	RetryInterval *metav1.Duration `json:"retryInterval,omitempty"`

	// Path is the root module's directory in the source; its root when
	// empty.
	// +optional
	Path string `json:"path,omitempty"`

	// SourceRef is the Flux source that holds the code.
	// +required
	SourceRef CrossNamespaceSourceReference `json:"sourceRef"`

	// +optional
	Suspend bool `json:"suspend,omitempty"`

	// +kubebuilder:default:=false
	// +optional
	Force bool `json:"force,omitempty"`

	// ReadInputsFromSecrets reads the output Secrets of other objects.
	// +optional
	ReadInputsFromSecrets []ReadInputsFromSecretSpec `json:"readInputsFromSecrets,omitempty"`

	// WriteOutputsToSecret writes the outputs to a Secret.
	// +optional
	WriteOutputsToSecret *WriteOutputsToSecretSpec `json:"writeOutputsToSecret,omitempty"`

	// +kubebuilder:default:=false
	// +optional
	DisableDriftDetection bool `json:"disableDriftDetection,omitempty"`

	// +optional
	CliConfigSecretRef *corev1.SecretReference `json:"cliConfigSecretRef,omitempty"`

	// +optional
	HealthChecks []HealthCheck `json:"healthChecks,omitempty"`

	// DestroyResourcesOnDeletion plans a destroy when the object is
	// deleted; the object goes once that plan is applied.
	// +kubebuilder:default:=false
	// +optional
	DestroyResourcesOnDeletion bool `json:"destroyResourcesOnDeletion,omitempty"`

	// ServiceAccountName is the service account of the runner.
	// +kubebuilder:default:=tf-runner
	// +optional
	ServiceAccountName string `json:"serviceAccountName,omitempty"`

	// +kubebuilder:default:=true
	// +optional
	AlwaysCleanupRunnerPod *bool `json:"alwaysCleanupRunnerPod,omitempty"`

	// RunnerTerminationGracePeriodSeconds is the runner's grace period to
	// stop tofu.
	// +kubebuilder:default:=30
	// +optional
	RunnerTerminationGracePeriodSeconds *int64 `json:"runnerTerminationGracePeriodSeconds,omitempty"`

	// +kubebuilder:default:=false
	// +optional
	RefreshBeforeApply bool `json:"refreshBeforeApply,omitempty"`

	// +optional
	RunnerPodTemplate RunnerPodTemplate `json:"runnerPodTemplate,omitempty"`

	// +optional
	EnableInventory bool `json:"enableInventory,omitempty"`

	// +optional
	TFState *TFStateSpec `json:"tfstate,omitempty"`

	// +optional
	Targets []string `json:"targets,omitempty"`

	// +kubebuilder:default:=0
	// +optional
	Parallelism int32 `json:"parallelism,omitempty"`

	// +kubebuilder:validation:Enum=none;json;human
	// +kubebuilder:default:=none
	// +optional
	StoreReadablePlan string `json:"storeReadablePlan,omitempty"`

	// +optional
	Webhooks []Webhook `json:"webhooks,omitempty"`

	// DependsOn names the Terraform objects this one runs after.
	// +optional
	DependsOn []NamespacedObjectReference `json:"dependsOn,omitempty"`

	// +optional
	Enterprise *apiextensionsv1.JSON `json:"enterprise,omitempty"`

	// +optional
	PlanOnly bool `json:"planOnly,omitempty"`

	// +optional
	BreakTheGlass bool `json:"breakTheGlass,omitempty"`

	// TfVarsFiles are .tfvars files of the source, as -var-file.
	// +optional
	TfVarsFiles []string `json:"tfVarsFiles,omitempty"`

	// RetryStrategy is StaticInterval or ExponentialBackoff.
	// +kubebuilder:validation:Enum=StaticInterval;ExponentialBackoff
	// +optional
	RetryStrategy string `json:"retryStrategy,omitempty"`

	// MaxRetryInterval bounds ExponentialBackoff.
	// +optional
	MaxRetryInterval *metav1.Duration `json:"maxRetryInterval,omitempty"`

	// UpgradeOnInit runs init with -upgrade.
	// +optional
	UpgradeOnInit *bool `json:"upgradeOnInit,omitempty"`

	// Plan holds options of the plan phase alone.
	// +optional
	Plan *PlanSpec `json:"plan,omitempty"`

	// BranchPlanner configures the Tofu Controller's branch planner.
	// +optional
	BranchPlanner *BranchPlanner `json:"branchPlanner,omitempty"`

	// Remediation says how often a failed reconcile is retried.
	// +optional
	Remediation *Remediation `json:"remediation,omitempty"`
}

// PlanSpec holds options of the plan phase alone.
type PlanSpec struct {
	// Lock false plans without taking the state lock.
	// +optional
	Lock *bool `json:"lock,omitempty"`
}

// BranchPlanner configures the Tofu Controller's branch planner.
type BranchPlanner struct {
	// +optional
	EnablePathScope bool `json:"enablePathScope"`
}

// Remediation says how often a failed reconcile is retried.
type Remediation struct {
	// +optional
	Retries int64 `json:"retries,omitempty"`
}

// Variable is one input variable: a JSON value, or a reference.
type Variable struct {
	// +required
	Name string `json:"name"`
	// +optional
	Value *apiextensionsv1.JSON `json:"value,omitempty"`
	// +optional
	ValueFrom *corev1.EnvVarSource `json:"valueFrom,omitempty"`
}

// VarsReference reads variables from a ConfigMap or a Secret.
type VarsReference struct {
	// +kubebuilder:validation:Enum=Secret;ConfigMap
	// +required
	Kind string `json:"kind"`
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +required
	Name string `json:"name"`
	// VarsKeys are the keys to read; every key when empty.
	// +optional
	VarsKeys []string `json:"varsKeys,omitempty"`
	// +optional
	Optional bool `json:"optional,omitempty"`
}

// BackendConfigsReference reads backend settings from a ConfigMap or a
// Secret.
type BackendConfigsReference struct {
	// +kubebuilder:validation:Enum=Secret;ConfigMap
	// +required
	Kind string `json:"kind"`
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +required
	Name string `json:"name"`
	// +optional
	Keys []string `json:"keys,omitempty"`
	// +optional
	Optional bool `json:"optional,omitempty"`
}

// BackendConfigSpec configures the state backend.
type BackendConfigSpec struct {
	// +optional
	Disable bool `json:"disable"`
	// SecretSuffix names the Kubernetes backend's state Secret
	// (tfstate-<workspace>-<secretSuffix>).
	// +optional
	SecretSuffix string `json:"secretSuffix,omitempty"`
	// +optional
	InClusterConfig bool `json:"inClusterConfig,omitempty"`
	// CustomConfiguration is a backend block, written as HCL.
	// +optional
	CustomConfiguration string `json:"customConfiguration,omitempty"`
	// +optional
	ConfigPath string `json:"configPath,omitempty"`
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
}

// CloudSpec is a Terraform Cloud workspace.
type CloudSpec struct {
	// +required
	Organization string `json:"organization"`
	// +required
	Workspaces *CloudWorkspacesSpec `json:"workspaces"`
	// +optional
	Hostname string `json:"hostname,omitempty"`
	// +optional
	Token string `json:"token,omitempty"`
}

// CloudWorkspacesSpec selects Terraform Cloud workspaces.
type CloudWorkspacesSpec struct {
	// +optional
	Name string `json:"name"`
	// +optional
	Tags []string `json:"tags,omitempty"`
}

// FileMapping writes a Secret's key as a file for tofu.
type FileMapping struct {
	SecretRef SecretKeyReference `json:"secretRef"`
	// +kubebuilder:validation:Enum=home;workspace
	// +required
	Location string `json:"location"`
	// +kubebuilder:validation:Pattern=`^(.?[/_a-zA-Z0-9]{1,})*$`
	// +required
	Path string `json:"path"`
}

// SecretKeyReference is one key of a Secret in the object's namespace.
type SecretKeyReference struct {
	// +required
	Name string `json:"name"`
	// +optional
	Key string `json:"key,omitempty"`
}

// CrossNamespaceSourceReference is a Flux source: a GitRepository, Bucket
// or OCIRepository.
type CrossNamespaceSourceReference struct {
	// +optional
	APIVersion string `json:"apiVersion,omitempty"`
	// +kubebuilder:validation:Enum=GitRepository;Bucket;OCIRepository
	// +required
	Kind string `json:"kind"`
	// +required
	Name string `json:"name"`
	// Namespace defaults to the Terraform object's.
	// +optional
	Namespace string `json:"namespace,omitempty"`
}

// NamespacedObjectReference is an object by name and, optionally,
// namespace.
type NamespacedObjectReference struct {
	// +required
	Name string `json:"name"`
	// +optional
	Namespace string `json:"namespace,omitempty"`
}

// ReadInputsFromSecretSpec reads another object's output Secret as a
// variable.
type ReadInputsFromSecretSpec struct {
	// +required
	Name string `json:"name"`
	// +required
	As string `json:"as"`
}

// WriteOutputsToSecretSpec names the Secret the outputs are written to.
type WriteOutputsToSecretSpec struct {
	// +required
	Name string `json:"name"`
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`
	// Outputs are the outputs to write; all of them when empty.
	// +optional
	Outputs []string `json:"outputs,omitempty"`
}

// HealthCheck is a check run after apply.
type HealthCheck struct {
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +required
	Name string `json:"name"`
	// +kubebuilder:validation:Enum=tcp;http
	// +required
	Type string `json:"type"`
	// +optional
	URL string `json:"url,omitempty"`
	// +optional
	Address string `json:"address,omitempty"`
	// +kubebuilder:default="20s"
	// +optional
	Timeout *metav1.Duration `json:"timeout,omitempty"`
}

// Webhook is called at a stage of a run.
type Webhook struct {
	// +kubebuilder:validation:Enum=post-planning
	// +kubebuilder:default:=post-planning
	// +required
	Stage string `json:"stage"`
	// +kubebuilder:default:=true
	// +optional
	Enabled *bool `json:"enabled,omitempty"`
	// +required
	URL string `json:"url"`
	// +kubebuilder:default:=SpecAndPlan
	// +optional
	PayloadType string `json:"payloadType,omitempty"`
	// +optional
	ErrorMessageTemplate string `json:"errorMessageTemplate,omitempty"`
	// +optional
	TestExpression string `json:"testExpression,omitempty"`
}

// TFStateSpec is what may be done to a locked state.
type TFStateSpec struct {
	// +kubebuilder:validation:Enum:=yes;no;auto
	// +kubebuilder:default:string=no
	// +optional
	ForceUnlock string `json:"forceUnlock,omitempty"`
	// +optional
	LockIdentifier string `json:"lockIdentifier,omitempty"`
	// LockTimeout is how long tofu retries a held lock.
	// +optional
	LockTimeout *metav1.Duration `json:"lockTimeout,omitempty"`
}

// RunnerPodTemplate shapes the runner's pod.
type RunnerPodTemplate struct {
	// +optional
	Metadata RunnerPodMetadata `json:"metadata,omitempty"`
	// +optional
	Spec RunnerPodSpec `json:"spec,omitempty"`
}

// RunnerPodMetadata are the runner pod's labels and annotations.
type RunnerPodMetadata struct {
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`
}

// RunnerPodSpec is the runner pod's spec, in part.
type RunnerPodSpec struct {
	// +optional
	Image string `json:"image,omitempty"`
	// +kubebuilder:validation:Enum=Always;IfNotPresent;Never
	// +optional
	ImagePullPolicy string `json:"imagePullPolicy,omitempty"`
	// +optional
	EnvFrom []corev1.EnvFromSource `json:"envFrom,omitempty"`
	// +optional
	Env []corev1.EnvVar `json:"env,omitempty"`
	// +optional
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`
	// +optional
	Affinity *corev1.Affinity `json:"affinity,omitempty"`
	// +optional
	Tolerations []corev1.Toleration `json:"tolerations,omitempty"`
	// +optional
	VolumeMounts []corev1.VolumeMount `json:"volumeMounts,omitempty"`
	// +optional
	Volumes []corev1.Volume `json:"volumes,omitempty"`
	// +optional
	InitContainers []corev1.Container `json:"initContainers,omitempty"`
	// +optional
	HostAliases []corev1.HostAlias `json:"hostAliases,omitempty"`
	// +optional
	PriorityClassName string `json:"priorityClassName,omitempty"`
	// +optional
	SecurityContext *corev1.SecurityContext `json:"securityContext,omitempty"`
	// +optional
	Resources *corev1.ResourceRequirements `json:"resources,omitempty"`
}
