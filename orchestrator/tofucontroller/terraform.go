package tofucontroller

import (
	"encoding/json"

	"github.com/strata-iac/strata/orchestrator/diag"
)

// Group is the Tofu Controller's API group; any version of it is read.
const Group = "infra.contrib.fluxcd.io"

// Kind is the kind of the Tofu Controller's object.
const Kind = "Terraform"

// The kinds of the objects a Terraform object reads its data from.
const (
	KindConfigMap = "ConfigMap"
	KindSecret    = "Secret"
)

// Terraform is one Terraform object as the render hands it over.
type Terraform struct {
	// Name is metadata.name; Namespace metadata.namespace, or the
	// namespace Flux puts an object that names none in.
	Name, Namespace string
	// File is the file the object came from, relative to the root.
	File string
	// Labels and Annotations are metadata's.
	Labels, Annotations map[string]string
	// Raw is the object as rendered, for the field checks
	// (checkFields): every field, not only those Spec holds.
	Raw map[string]any
	// Spec is the object's spec.
	Spec *Spec
}

// ref renders the object as "Terraform/name".
func (tf *Terraform) ref() string { return Kind + "/" + tf.Name }

// Spec is the part of a Terraform object's spec that strata reads, as it
// came from the YAML: durations are text, parsed where the stack is built,
// so that a bad value is a problem of its field with a fix, not a failure
// to decode the object. The whole of the Tofu Controller's TerraformSpec,
// which `strata controller` serves, is package v1alpha2's; terraformFields
// has a rule for each of its fields.
type Spec struct {
	Path                  string                  `json:"path"`
	SourceRef             *SourceRef              `json:"sourceRef"`
	Vars                  []Variable              `json:"vars"`
	Values                json.RawMessage         `json:"values"`
	VarsFrom              []VarsRef               `json:"varsFrom"`
	DependsOn             []NamedRef              `json:"dependsOn"`
	BackendConfig         *BackendConfig          `json:"backendConfig"`
	WriteOutputsToSecret  *WriteOutputsToSecret   `json:"writeOutputsToSecret"`
	ReadInputsFromSecrets []ReadInputsFromSecrets `json:"readInputsFromSecrets"`
	ApprovePlan           string                  `json:"approvePlan"`
	Tfstate               struct {
		ForceUnlock    string `json:"forceUnlock"`
		LockIdentifier string `json:"lockIdentifier"`
		LockTimeout    string `json:"lockTimeout"`
	} `json:"tfstate"`
	Suspend                    bool     `json:"suspend"`
	Interval                   string   `json:"interval"`
	RetryInterval              string   `json:"retryInterval"`
	DisableDriftDetection      bool     `json:"disableDriftDetection"`
	DestroyResourcesOnDeletion bool     `json:"destroyResourcesOnDeletion"`
	Targets                    []string `json:"targets"`
	TfVarsFiles                []string `json:"tfVarsFiles"`
	EnableInventory            bool     `json:"enableInventory"`
	Plan                       struct {
		Lock *bool `json:"lock"`
	} `json:"plan"`
	Parallelism        int                 `json:"parallelism"`
	RefreshBeforeApply bool                `json:"refreshBeforeApply"`
	PlanOnly           bool                `json:"planOnly"`
	Workspace          string              `json:"workspace"`
	Force              bool                `json:"force"`
	Destroy            bool                `json:"destroy"`
	FileMappings       []FileMapping       `json:"fileMappings"`
	CliConfigSecretRef *SecretRef          `json:"cliConfigSecretRef"`
	HealthChecks       []HealthCheck       `json:"healthChecks"`
	Webhooks           []Webhook           `json:"webhooks"`
	Cloud              *Cloud              `json:"cloud"`
	RetryStrategy      string              `json:"retryStrategy"`
	MaxRetryInterval   string              `json:"maxRetryInterval"`
	BackendConfigsFrom []BackendConfigsRef `json:"backendConfigsFrom"`
	RunnerPodTemplate  struct {
		Spec struct {
			Env            []EnvVar        `json:"env"`
			EnvFrom        []EnvFromSource `json:"envFrom"`
			Volumes        []Volume        `json:"volumes"`
			VolumeMounts   []VolumeMount   `json:"volumeMounts"`
			InitContainers []struct {
				Name string `json:"name"`
			} `json:"initContainers"`
			HostAliases []struct {
				IP        string   `json:"ip"`
				Hostnames []string `json:"hostnames"`
			} `json:"hostAliases"`
		} `json:"spec"`
	} `json:"runnerPodTemplate"`
}

// Volume is one of spec.runnerPodTemplate.spec.volumes: Kubernetes'
// Volume, of which a repository can give the Secret, ConfigMap and
// emptyDir kinds (Raw says which kind it is).
type Volume struct {
	Name      string          `json:"name"`
	Secret    *ObjectVolume   `json:"secret"`
	ConfigMap *ObjectVolume   `json:"configMap"`
	EmptyDir  json.RawMessage `json:"emptyDir"`
}

// ObjectVolume is a Secret volume (Kubernetes' SecretVolumeSource, which
// names it secretName) or a ConfigMap volume (ConfigMapVolumeSource,
// name).
type ObjectVolume struct {
	SecretName string      `json:"secretName"`
	Name       string      `json:"name"`
	Items      []KeyToPath `json:"items"`
	Optional   bool        `json:"optional"`
}

// KeyToPath is Kubernetes' KeyToPath: a key of a Secret or ConfigMap
// volume, at a path of its own.
type KeyToPath struct {
	Key  string `json:"key"`
	Path string `json:"path"`
}

// VolumeMount is one of spec.runnerPodTemplate.spec.volumeMounts.
type VolumeMount struct {
	Name      string `json:"name"`
	MountPath string `json:"mountPath"`
	SubPath   string `json:"subPath"`
}

// SourceRef is spec.sourceRef: the Flux source of the stack's code.
type SourceRef struct {
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
}

// String renders the reference as "Kind/name".
func (r SourceRef) String() string { return r.Kind + "/" + r.Name }

// NamedRef is one entry of spec.dependsOn.
type NamedRef struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
}

// Variable is one entry of spec.vars.
type Variable struct {
	Name      string          `json:"name"`
	Value     json.RawMessage `json:"value"`
	ValueFrom *ValueFrom      `json:"valueFrom"`
}

// VarsRef is one entry of spec.varsFrom.
type VarsRef struct {
	Kind     string   `json:"kind"`
	Name     string   `json:"name"`
	Optional bool     `json:"optional,omitempty"`
	VarsKeys []string `json:"varsKeys,omitempty"`
}

// ValueFrom is a variable's valueFrom: Kubernetes' EnvVarSource. Only the
// key references have a meaning outside a pod.
type ValueFrom struct {
	SecretKeyRef     *KeyRef         `json:"secretKeyRef"`
	ConfigMapKeyRef  *KeyRef         `json:"configMapKeyRef"`
	FieldRef         json.RawMessage `json:"fieldRef"`
	ResourceFieldRef json.RawMessage `json:"resourceFieldRef"`
}

// KeyRef selects one key of a Secret or ConfigMap.
type KeyRef struct {
	Name     string `json:"name"`
	Key      string `json:"key"`
	Optional bool   `json:"optional"`
}

// BackendConfig is spec.backendConfig.
type BackendConfig struct {
	CustomConfiguration string `json:"customConfiguration"`
	// Disable leaves the state to the module's own backend or cloud
	// block: strata writes no backend.
	Disable bool `json:"disable"`
	// The Tofu Controller's kubernetes backend (kubernetesBackend).
	SecretSuffix    string            `json:"secretSuffix"`
	InClusterConfig bool              `json:"inClusterConfig"`
	ConfigPath      string            `json:"configPath"`
	Labels          map[string]string `json:"labels"`
}

// HealthCheck is one entry of spec.healthChecks.
type HealthCheck struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	Address string `json:"address"`
	URL     string `json:"url"`
	Timeout string `json:"timeout"`
}

// Cloud is spec.cloud: an HCP Terraform or Terraform Enterprise
// workspace.
type Cloud struct {
	Organization string `json:"organization"`
	Workspaces   *struct {
		Name string   `json:"name"`
		Tags []string `json:"tags"`
	} `json:"workspaces"`
	Hostname string `json:"hostname"`
	Token    string `json:"token"`
}

// Webhook is one entry of spec.webhooks.
type Webhook struct {
	Stage                string `json:"stage"`
	Enabled              *bool  `json:"enabled"`
	URL                  string `json:"url"`
	PayloadType          string `json:"payloadType"`
	ErrorMessageTemplate string `json:"errorMessageTemplate"`
	TestExpression       string `json:"testExpression"`
}

// SecretRef is Kubernetes' SecretReference: a Secret by name, in the
// object's namespace unless it names another.
type SecretRef struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
}

// WriteOutputsToSecret is spec.writeOutputsToSecret: the Secret the
// stack's outputs are written to, strata's contract.
type WriteOutputsToSecret struct {
	Name    string   `json:"name"`
	Outputs []string `json:"outputs"`
}

// ReadInputsFromSecrets is one entry of spec.readInputsFromSecrets.
type ReadInputsFromSecrets struct {
	Name string `json:"name"`
	As   string `json:"as"`
}

// BackendConfigsRef is one entry of spec.backendConfigsFrom.
type BackendConfigsRef struct {
	Kind     string   `json:"kind"`
	Name     string   `json:"name"`
	Keys     []string `json:"keys"`
	Optional bool     `json:"optional"`
}

// EnvVar is one entry of spec.runnerPodTemplate.spec.env: Kubernetes'
// EnvVar.
type EnvVar struct {
	Name      string     `json:"name"`
	Value     string     `json:"value"`
	ValueFrom *ValueFrom `json:"valueFrom"`
}

// EnvFromSource is one entry of spec.runnerPodTemplate.spec.envFrom:
// Kubernetes' EnvFromSource.
type EnvFromSource struct {
	Prefix       string       `json:"prefix"`
	ConfigMapRef *OptionalRef `json:"configMapRef"`
	SecretRef    *OptionalRef `json:"secretRef"`
}

// OptionalRef names a ConfigMap or Secret that may be missing.
type OptionalRef struct {
	Name     string `json:"name"`
	Optional bool   `json:"optional"`
}

// FileMapping is one entry of spec.fileMappings: the key of a Secret,
// written to a file before init.
type FileMapping struct {
	Location  string `json:"location"`
	Path      string `json:"path"`
	SecretRef struct {
		Name string `json:"name"`
		Key  string `json:"key"`
	} `json:"secretRef"`
}

// Object is a ConfigMap or Secret that a Terraform object reads.
type Object struct {
	// Kind is KindConfigMap or KindSecret.
	Kind, Name string
	// File is the file it came from, relative to the root, or where an
	// input came from ("inputs/creds.yaml", "cluster dev").
	File string
	// Data is its data; a Secret's decoded from base64.
	Data map[string]string
	// Failed is set on a Secret that could not be decrypted: a problem
	// of the render says why, and Data is empty.
	Failed bool
}

// ref renders the object as "Kind/name".
func (o *Object) ref() string { return o.Kind + "/" + o.Name }

// Render is what Build reads of the rest of the environment as the Flux
// render found it, around one Terraform object: the ConfigMaps and
// Secrets it can read, and where its problems and notes go.
type Render interface {
	// ConfigMap and Secret return the ConfigMap or Secret of that name
	// that the object can read, from the repository or the inputs; nil
	// when there is none. A Secret the render returns nil for may be
	// another stack's output Secret, read when the stack runs.
	ConfigMap(name string) *Object
	Secret(name string) *Object
	// SecretIn is Secret for a Secret of another namespace. It reports
	// false when the object may not read another namespace's Secrets: in
	// a cluster's namespace, without cross-namespace references.
	SecretIn(namespace, name string) (*Object, bool)
	// Unset reports, as a problem, the variables that postBuild
	// substitution left empty in o, which the stack reads as use.
	Unset(o *Object, use string)
	// FromCluster reports whether the environment is a cluster's
	// namespace: there the runner pod's fields stay on the pod, as the
	// Tofu Controller puts them there.
	FromCluster() bool
	// Problem records a problem of the stack; Missing one of
	// diag.MissingInput's, of a ConfigMap or Secret the stack waits for.
	Problem(p diag.Problem)
	Missing(p diag.Problem)
	// Warn records a warning of the stack: what it asks that strata
	// cannot give it here, which holds nothing back.
	Warn(p diag.Problem)
	// Note records what validate -v says of an accepted field that
	// changes nothing.
	Note(note string)
}
