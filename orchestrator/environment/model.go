package environment

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/strata-iac/strata/orchestrator/diag"
)

// Annotations and init keys that carry strata's own settings, which have no
// Flux field. Flux and the Tofu Controller ignore them.
const (
	// AnnotationLayer puts a Terraform object in a layer (account, network,
	// cluster, services). Without it a stack is in services.
	AnnotationLayer = "strata.dev/layer"
	// AnnotationContract names the contract a stack produces. Without it the
	// contract is named after spec.writeOutputsToSecret.name.
	AnnotationContract = "strata.dev/contract"
	// AnnotationReadContracts makes a stack read every contract whose name
	// matches a regular expression, the way the seed's ssm_json_regex
	// module reads a path: one "variable: regex" per line. The variable
	// receives a map from contract name to document.
	AnnotationReadContracts = "strata.dev/read-contracts"
	// AnnotationStack names a Terraform object's stack, in place of the
	// name strata gives it (metadata.name, or namespace_name when
	// another namespace has an object of that name): a stack keeps its
	// runs, state and contract under the name they were recorded under.
	AnnotationStack = "strata.dev/stack"
)

// Values of spec.approvePlan that are not plan ids, and of
// spec.tfstate.forceUnlock.
const (
	ApprovePlanAuto    = "auto"
	ApprovePlanDisable = "disable"
	ForceUnlockAuto    = "auto"
	ForceUnlockYes     = "yes"
	ForceUnlockNo      = "no"
)

// DefaultRetryInterval is how soon the reconcile loop retries a stack whose
// last run failed when its spec.retryInterval is unset: the Tofu
// Controller's default.
const DefaultRetryInterval = 15 * time.Second

// Environment classes, from the init ConfigMap's environmentClass.
const (
	ClassProd    = "prod"
	ClassNonProd = "non-prod"
)

// Layer is a stack's layer. Lower layers run first, and a stack never
// depends on a stack in a higher layer.
type Layer int

// The layers, in the order they run.
const (
	LayerAccount Layer = iota
	LayerNetwork
	LayerCluster
	LayerServices
)

var layerNames = []string{"account", "network", "cluster", "services"}

// String returns the layer's name.
func (l Layer) String() string {
	if l < 0 || int(l) >= len(layerNames) {
		return fmt.Sprintf("layer(%d)", int(l))
	}
	return layerNames[l]
}

// ParseLayer returns the layer with the given name.
func ParseLayer(name string) (Layer, bool) {
	for i, n := range layerNames {
		if n == name {
			return Layer(i), true
		}
	}
	return 0, false
}

// LayerNames lists the layer names in order.
func LayerNames() []string { return append([]string(nil), layerNames...) }

// Environment is one client environment, fully loaded and substituted.
type Environment struct {
	// Root is the repository root: the root of the git work tree (see
	// Load). Absolute.
	Root string
	// Dir is the entry directory, relative to Root
	// (environments/<client>/<env>, clusters/<name>, …).
	Dir string
	// Client and Name come from the init ConfigMap's clientId and
	// environment keys (falling back to the directory names).
	Client string
	Name   string
	// Class is the init ConfigMap's environmentClass: prod or non-prod.
	Class string
	// Init is the data of the init ConfigMap, for substitution only:
	// strata's own keys are read through Settings.
	Init map[string]string
	// Settings are strata's settings from the init ConfigMap, checked.
	// Apply the command line's Overrides with Settings.With.
	Settings Settings
	// Stacks are the Terraform objects of the environment, sorted by name.
	Stacks []*Stack
	// Skipped counts the rendered objects of kinds strata does not read
	// (HelmRelease, Namespace, …), by kind.
	Skipped map[string]int
	// Notes are what loading has to say that is not a problem: how the
	// repository root was found, an entry Kustomization read once, …
	Notes []string
	// Blocked are the stacks that a problem in their chain holds back
	// (isolate.go), and the Kustomizations that could not be built: they
	// are not among Stacks, and nothing of them runs. The rest of the
	// environment runs.
	Blocked []Blocked `json:",omitempty"`
	// Warnings are the problems that hold back no stack: in a
	// Kustomization that brings in none, or in what no stack uses.
	Warnings diag.Problems `json:",omitempty"`
	// Deprecations are kustomize's warnings of deprecated fields, by
	// file: logged as warnings, never problems.
	Deprecations diag.Problems `json:",omitempty"`
}

// Stack returns the stack with the given name, or nil.
func (e *Environment) Stack(name string) *Stack {
	// A load leaves Stacks sorted by name: a reconcile of 10,000 stacks
	// looks each up several times. A list that is not sorted any more
	// is searched from the start.
	if i, ok := slices.BinarySearchFunc(e.Stacks, name, func(s *Stack, name string) int { return strings.Compare(s.Name, name) }); ok && e.Stacks[i].Name == name {
		return e.Stacks[i]
	}
	for _, s := range e.Stacks {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Producer returns the stack that produces the named contract, or nil.
func (e *Environment) Producer(contract string) *Stack {
	for _, s := range e.Stacks {
		if s.Produces != "" && s.Produces == contract {
			return s
		}
	}
	return nil
}

// NamespaceSeparator joins a namespace and a name in a qualified stack or
// contract name: neither a Kubernetes namespace nor an object's name
// holds it, and a path, an S3 key and an SSM parameter name all take it.
const NamespaceSeparator = "_"

// Qualified is the name of a stack or a contract whose name alone is not
// unique in the environment: namespace_name.
func Qualified(namespace, name string) string {
	return namespace + NamespaceSeparator + name
}

// Unqualified is the name without the namespace that Qualified put
// before it, and whether there was one.
func Unqualified(name string) (string, bool) {
	_, bare, ok := strings.Cut(name, NamespaceSeparator)
	return bare, ok
}

// Stack is one Terraform object: one OpenTofu root module run as a unit.
type Stack struct {
	// Name is metadata.name of the Terraform object, unique in the
	// environment; when Terraform objects of one name are in more than
	// one namespace of the environment (Flux and the Tofu Controller key
	// them by namespace and name), each is Qualified(namespace, name).
	Name string `json:",omitzero"`
	// Namespace is the Terraform object's namespace.
	Namespace string `json:",omitzero"`
	// File is the file that holds the Terraform object, relative to Root.
	File string `json:",omitzero"`
	// Group is the environment sub-directory (environments/<c>/<e>/<group>)
	// whose Kustomization brought the stack in.
	Group string `json:",omitzero"`
	// Kustomization is the name of that Flux Kustomization, and
	// KustomizationFile its file relative to Root.
	Kustomization     string `json:",omitzero"`
	KustomizationFile string `json:",omitzero"`
	// Layer comes from the strata.dev/layer annotation; services by default.
	Layer Layer `json:",omitzero"`
	// Source is where the stack's code comes from (spec.sourceRef).
	Source Source `json:",omitzero"`
	// Path is spec.path: the root module's directory inside the source.
	Path string `json:",omitzero"`
	// Vars are the stack's input variables known when the environment
	// loads: spec.vars (value, and valueFrom a ConfigMap or Secret of the
	// repository), then spec.varsFrom ConfigMaps and Secrets of the
	// repository, in the Tofu Controller's order (later entries win). A
	// Secret's or ConfigMap's value is a string, as the Tofu Controller
	// passes it. Values are JSON-compatible (string, float64, bool, nil,
	// []any, map[string]any). Private: never log them.
	Vars map[string]any `json:",omitzero"`
	// ContractVars are the entries of spec.vars[].valueFrom and
	// spec.varsFrom that read another stack's output Secret: their values
	// come from its contract when the stack runs, over Vars, in order.
	ContractVars []ContractVars `json:",omitzero"`
	// Values is spec.values as the JSON the Kubernetes API keeps for it: a
	// template with ${{ }} delimiters over the readInputsFromSecrets
	// inputs, rendered into var.values when the stack runs. "" when unset.
	Values string `json:",omitzero"`
	// SecretInputs are the readInputsFromSecrets entries that name a
	// Secret of the repository rather than a contract: by `as`, its keys
	// decoded as the Tofu Controller decodes them. For Values only.
	SecretInputs map[string]map[string]any `json:",omitzero"`
	// DependsOn names the stacks this one depends on: spec.dependsOn of the
	// Terraform object and every Terraform object of the Kustomizations
	// named in the Kustomization's spec.dependsOn. Sorted, no duplicates.
	// Contract edges are not included: see Consumes.
	DependsOn []string `json:",omitzero"`
	// BackendConfig is spec.backendConfig.customConfiguration, substituted;
	// empty when the stack uses strata's default local state.
	BackendConfig string `json:",omitzero"`
	// BackendDisabled is spec.backendConfig.disable: the module's own
	// backend or cloud block keeps the state, and strata writes no
	// backend; BackendConfig is then unused.
	BackendDisabled bool `json:",omitzero"`
	// Produces is the contract the stack publishes its outputs to, or "".
	Produces string `json:",omitzero"`
	// ProducesOutputs limits the published outputs
	// (spec.writeOutputsToSecret.outputs); empty means all outputs.
	ProducesOutputs []string `json:",omitzero"`
	// Consumes lists the contracts the stack reads
	// (spec.readInputsFromSecrets).
	Consumes []Input `json:",omitzero"`
	// ConsumesMatching lists the sets of contracts the stack reads by
	// regular expression (annotation strata.dev/read-contracts).
	ConsumesMatching []MatchInput `json:",omitzero"`
	// ApprovePlan is spec.approvePlan: "auto" (policy decides), "" (every
	// plan with changes is held), "disable" (drift detection only: planned,
	// never applied) or a plan id (that plan is approved).
	ApprovePlan string `json:",omitzero"`
	// ForceUnlock is spec.tfstate.forceUnlock: "auto" releases a lock
	// whose holder is provably dead (same host, no tofu left in the
	// stack's workspace) before the plan; "yes" releases the lock whose ID
	// is LockIdentifier (spec.tfstate.lockIdentifier), and no other.
	ForceUnlock    string `json:",omitzero"`
	LockIdentifier string `json:",omitzero"`
	// Suspend is spec.suspend: the stack is neither planned nor applied,
	// and its dependents wait.
	Suspend bool `json:",omitzero"`
	// Frozen, when set, says why Flux applies no change to the Terraform
	// object (its Kustomization is suspended, or waits for one that is;
	// the object is annotated kustomize.toolkit.fluxcd.io/reconcile:
	// disabled or ssa: Ignore): the stack keeps what it last ran, neither
	// planned nor applied; one that never ran waits, since Flux never
	// creates it. FrozenOnceRun says Frozen holds only once the stack has
	// run (ssa: IfNotPresent: Flux creates the object, then never changes
	// it).
	Frozen        string `json:",omitzero"`
	FrozenOnceRun bool   `json:",omitzero"`
	// HealthChecks are spec.healthChecks: checked after an apply.
	HealthChecks []HealthCheck `json:",omitzero"`
	// Webhooks are spec.webhooks that are enabled, in order: each judges
	// a plan with changes before it goes further. Object is the
	// Terraform object as rendered, without its status, for their
	// payloads; empty without webhooks.
	Webhooks []Webhook       `json:",omitzero"`
	Object   json.RawMessage `json:",omitzero"`
	// Interval is spec.interval: how long the stack goes without a plan
	// when none of its inputs changed (its drift interval); 0 when unset.
	Interval time.Duration `json:",omitzero"`
	// RetryInterval is spec.retryInterval: the reconcile loop retries a
	// stack whose last run failed no sooner than this after that run
	// (DefaultRetryInterval when unset).
	RetryInterval time.Duration `json:",omitzero"`
	// RetryBackoff is spec.retryStrategy: ExponentialBackoff: the wait
	// doubles with each failure in a row, up to MaxRetryInterval
	// (spec.maxRetryInterval; a day when 0).
	RetryBackoff     bool          `json:",omitzero"`
	MaxRetryInterval time.Duration `json:",omitzero"`
	// DisableDriftDetection is spec.disableDriftDetection: the stack is
	// planned only when an input changed, never for drift alone.
	DisableDriftDetection bool `json:",omitzero"`
	// DestroyResourcesOnDeletion is spec.destroyResourcesOnDeletion: when
	// the stack leaves the repository its resources are destroyed
	// (through policy); otherwise strata stops managing them and keeps
	// their state and contract.
	DestroyResourcesOnDeletion bool `json:",omitzero"`
	// Version is the version constraint of the stack's code, taken from the
	// service-versions ConfigMap key VersionKey (version_<name>_tf, with
	// "-" in the name written as "_"); empty when there is none.
	Version    string `json:",omitzero"`
	VersionKey string `json:",omitzero"`
	// Run holds the Terraform fields that change how tofu runs.
	Run Run `json:",omitzero"`
}

// Run is how tofu runs a stack: the Terraform fields the Tofu Controller
// passes to its runner. The zero value is tofu's defaults.
type Run struct {
	// Targets are spec.targets: -target on plan and apply.
	Targets []string `json:",omitzero"`
	// PlanNoLock is spec.plan.lock: false: the plan takes no state lock
	// (-lock=false); the apply still does.
	PlanNoLock bool `json:",omitzero"`
	// LockTimeout is spec.tfstate.lockTimeout: how long the plan waits
	// for a held state lock (-lock-timeout), as the Tofu Controller gives
	// it to the plan; 0 waits not at all.
	LockTimeout time.Duration `json:",omitzero"`
	// Inventory is spec.enableInventory: an apply lists the resources it
	// left in the state (history.Run's Inventory).
	Inventory bool `json:",omitzero"`
	// VarFiles are spec.tfVarsFiles: .tfvars files, relative to the root
	// of the stack's source, each a -var-file of the plan after strata's
	// own variables (a value in one wins), as the Tofu Controller gives
	// them.
	VarFiles []string `json:",omitzero"`
	// Parallelism is spec.parallelism: -parallelism on plan and apply;
	// 0 is tofu's default.
	Parallelism int `json:",omitzero"`
	// RefreshBeforeApply is spec.refreshBeforeApply: -refresh=true on
	// apply, as the Tofu Controller passes it.
	RefreshBeforeApply bool `json:",omitzero"`
	// PlanOnly is spec.planOnly: plan every time, never apply.
	PlanOnly bool `json:",omitzero"`
	// Workspace is spec.workspace: the tofu workspace, selected (or
	// created) after init; "" is the default workspace.
	Workspace string `json:",omitzero"`
	// Force is spec.force: plan even when no input changed.
	Force bool `json:",omitzero"`
	// Destroy is spec.destroy: plan the destruction of every resource.
	Destroy bool `json:",omitzero"`
	// Files are spec.fileMappings, resolved.
	Files []File `json:",omitzero"`
	// BackendConfigs are spec.backendConfigsFrom, resolved: each is given
	// to init as -backend-config=key=value, in order (a later one wins),
	// as the Tofu Controller gives them.
	BackendConfigs []BackendConfig `json:",omitempty"`
	// Env is spec.runnerPodTemplate.spec.env and envFrom, resolved as
	// the kubelet resolves a container's environment: tofu's environment
	// in a repository, and under strata controller's in-process runs. A
	// runner Job's request leaves it out: its pod has those fields, as the
	// Tofu Controller's has.
	Env []EnvVar `json:",omitempty"`
	// Mounts are the mount paths of the runner pod's volumes whose files
	// a repository's run writes itself (Files of FileVolume, an emptyDir
	// as an empty directory): a value of Env under one of them names the
	// run's copy. Sorted.
	Mounts []string `json:",omitempty"`
	// CLIConfig is spec.cliConfigSecretRef, resolved: the tofu CLI
	// configuration of the Secret's one .tfrc key, which the runner
	// merges with strata's own (the provider mirror) for every tofu
	// command of the stack. nil without one.
	CLIConfig *CLIConfig `json:",omitempty"`
}

// HealthCheck is one of spec.healthChecks: after an apply, a TCP dial of
// Address (type tcp) or an HTTP GET of URL (type http) that must answer
// 2xx or 3xx, within Timeout. Address and URL are templates over the
// stack's outputs, with ${{ }} delimiters: ${{.host}}.
type HealthCheck struct {
	Name, Type   string
	Address, URL string
	Timeout      time.Duration
}

// Webhook is one of spec.webhooks at stage post-planning: the plan is
// posted to URL as PayloadType says (SpecAndPlan, SpecOnly, PlanOnly),
// and the reply, a JSON object, passes when TestExpression renders true
// or yes; ErrorMessageTemplate renders the refusal. Both are templates
// over the reply with ${{ }} delimiters.
type Webhook struct {
	URL, PayloadType                     string
	TestExpression, ErrorMessageTemplate string
}

// The payload types of a webhook.
const (
	PayloadSpecAndPlan = "SpecAndPlan"
	PayloadSpecOnly    = "SpecOnly"
	PayloadPlanOnly    = "PlanOnly"
)

// Target is what the check reaches: its address, or its URL for an http
// check; a template over the outputs.
func (c HealthCheck) Target() string {
	if c.Type == HealthCheckHTTP {
		return c.URL
	}
	return c.Address
}

// The types of health check.
const (
	HealthCheckTCP  = "tcp"
	HealthCheckHTTP = "http"
)

// CLIConfig is the tofu CLI configuration a stack's
// spec.cliConfigSecretRef names: credentials for hosts (HCP Terraform,
// a private registry), and other CLI settings.
type CLIConfig struct {
	// Source names where it comes from ("Secret NS/NAME key KEY"), for
	// messages; never the text.
	Source string
	// Text is private, as BackendConfig.Value is: it holds tokens.
	Text string `json:"value"`
}

// String names the configuration's source, never its text.
func (c CLIConfig) String() string { return "CLI configuration from " + c.Source }

// GoString keeps the text out of %#v too.
func (c CLIConfig) GoString() string { return "environment.CLIConfig{" + c.Source + "}" }

// BackendConfig is one backend setting from spec.backendConfigsFrom.
type BackendConfig struct {
	// Key is the backend's argument.
	Key string
	// Source names where the value comes from ("Secret NAME key KEY"),
	// for messages; never the value.
	Source string
	// Value is private, as File.Content is.
	Value string `json:"value"`
}

// String names the setting and its source, never its value.
func (b BackendConfig) String() string { return fmt.Sprintf("%s (from %s)", b.Key, b.Source) }

// GoString keeps the value out of %#v too.
func (b BackendConfig) GoString() string { return "environment.BackendConfig{" + b.String() + "}" }

// EnvVar is one variable of a stack's environment, from
// spec.runnerPodTemplate.spec.env or envFrom.
type EnvVar struct {
	Name string
	// Source names where the value comes from ("value", "Secret NAME key
	// KEY"), for messages; never the value.
	Source string
	// Value is private, as File.Content is.
	Value string `json:"value"`
}

// String names the variable and its source, never its value.
func (e EnvVar) String() string { return fmt.Sprintf("%s (from %s)", e.Name, e.Source) }

// GoString keeps the value out of %#v too.
func (e EnvVar) GoString() string { return "environment.EnvVar{" + e.String() + "}" }

// Locations of a File.
const (
	FileHome      = "home"
	FileWorkspace = "workspace"
	// FileVolume is a file of a runner pod's Secret or ConfigMap volume
	// (spec.runnerPodTemplate.spec.volumes), written for a repository's
	// run: its Path is the pod's path, less the leading slash.
	FileVolume = "volume"
)

// File is one spec.fileMappings entry: the content of a Secret's key,
// written to Path under Location before init.
type File struct {
	// Location is FileHome (the home directory tofu runs with) or
	// FileWorkspace (the stack's root module directory).
	Location string
	// Path is relative to Location.
	Path string
	// Source names where the content comes from ("Secret NAME key KEY"),
	// for messages; never the content.
	Source string
	// Content is private: it is never logged, recorded or shown. It is
	// encoded only in a run's request to a runner pod, which is a
	// Kubernetes Secret.
	Content []byte `json:"content"`
}

// String names the file and its source, never its content.
func (f File) String() string {
	return fmt.Sprintf("%s:%s (from %s)", f.Location, f.Path, f.Source)
}

// GoString keeps the content out of %#v too.
func (f File) GoString() string { return "environment.File{" + f.String() + "}" }

// Input is one contract a stack consumes.
type Input struct {
	// Contract is the contract's name (readInputsFromSecrets[].name).
	Contract string
	// As is the name of the OpenTofu variable that receives the contract's
	// JSON document (readInputsFromSecrets[].as).
	As string
}

// ContractVars is a spec.varsFrom entry of kind Secret, or a
// spec.vars[].valueFrom.secretKeyRef, naming the Secret another stack
// writes (writeOutputsToSecret): the variables it gives come from that
// stack's contract, as the Tofu Controller's Secret would hold it.
type ContractVars struct {
	// Contract is the Secret's name: the contract read.
	Contract string
	// Field is where the entry is, for messages: spec.varsFrom[1],
	// spec.vars[0].valueFrom.
	Field string
	// Keys selects keys and names their variables (varsKeys with old:new
	// renames, or the valueFrom's key and variable); nil hands over every
	// key under its own name.
	Keys []KeyRename
	// Optional is the entry's optional.
	Optional bool
	// ValueFrom is true for a vars[].valueFrom, whose missing key leaves
	// the variable unset (Kubernetes' meaning); a varsFrom key that is
	// missing is an error, or "" when Optional (the Tofu Controller's).
	ValueFrom bool
	// Keep are the variables a later entry sets: they win over this one.
	Keep []string
}

// KeyRename hands key From over as variable To.
type KeyRename struct {
	From, To string
}

// ContractsRead lists every contract the stack reads, by any field, sorted
// and once each: readInputsFromSecrets and the varsFrom and valueFrom
// entries that name another stack's output Secret (not sets read by
// regular expression).
func (s *Stack) ContractsRead() []string {
	var out []string
	for _, in := range s.Consumes {
		out = append(out, in.Contract)
	}
	for _, cv := range s.ContractVars {
		out = append(out, cv.Contract)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// varName is the form Flux requires of a substitution variable's name,
// which a tofu variable that a read-contracts line binds takes too.
var varName = regexp.MustCompile(`^[_a-zA-Z][_a-zA-Z0-9]*$`)

// ValidVarName reports whether name may be used as a postBuild
// substitution variable, or as the variable of a read-contracts line
// (MatchInput.As).
func ValidVarName(name string) bool { return varName.MatchString(name) }

// MatchInput is a set of contracts a stack reads: every contract whose
// name, relative to the contract prefix, fully matches Regex.
type MatchInput struct {
	// As is the OpenTofu variable that receives the map of documents.
	As string
	// Regex is matched against the whole contract name, as ^(?:Regex)$.
	Regex string
}

// Matches reports whether the contract name is in the set.
func (m MatchInput) Matches(contract string) bool {
	re, err := regexp.Compile("^(?:" + m.Regex + ")$")
	return err == nil && re.MatchString(contract)
}

// Source kinds.
const (
	SourceGitRepository = "GitRepository"
	SourceOCIRepository = "OCIRepository"
	SourceBucket        = "Bucket"
)

// DefaultGitSource is the GitRepository name that means "this repository's
// own checkout".
const DefaultGitSource = "flux-system"

// Source is a stack's spec.sourceRef, resolved.
type Source struct {
	// Kind is GitRepository or OCIRepository.
	Kind string `json:",omitzero"`
	// Name is the source object's name.
	Name string `json:",omitzero"`
	// File is the file that defines the source object, relative to Root;
	// empty for the implicit flux-system GitRepository.
	File string `json:",omitzero"`
	// URL is spec.url of an OCIRepository.
	URL string `json:",omitzero"`
	// Semver, Tag and Digest are spec.ref of an OCIRepository.
	Semver string `json:",omitzero"`
	Tag    string `json:",omitzero"`
	Digest string `json:",omitzero"`
	// Insecure is spec.insecure of an OCIRepository: the registry may be
	// reached over plain http.
	Insecure bool `json:",omitzero"`
	// Timeout is the source's spec.timeout: how long one fetch of it may
	// take, DefaultSourceTimeout when unset (see Deadline).
	Timeout time.Duration `json:",omitempty"`
	// Artifact is set for a stack read from a cluster (LoadNamespace):
	// the artifact source-controller made of the source. Its URL is empty
	// while the source has none yet.
	Artifact *Artifact `json:",omitempty"`
	// Self is set on a GitRepository other than flux-system that is this
	// repository: its URL is one of the checkout's remotes, or
	// --self-source names it. Its code is read from the checkout.
	Self bool `json:",omitempty"`
	// Ignore is, for this repository's checkout (Local), the spec.ignore
	// of the GitRepository the stack names; nil when unset. The stack's
	// code is the checkout's files that source-controller would pack
	// with it (package checkout).
	Ignore *string `json:",omitempty"`
	// Git is a GitRepository that is another repository, fetched.
	Git *GitSource `json:",omitempty"`
	// Bucket is a Bucket source, fetched.
	Bucket *BucketSource `json:",omitempty"`
}

// DefaultSourceTimeout is how long one fetch of a source may take when its
// spec.timeout is unset: source-controller's default.
const DefaultSourceTimeout = 60 * time.Second

// Deadline is how long one fetch of the source may take.
func (s Source) Deadline() time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return DefaultSourceTimeout
}

// Local reports whether the source is this repository's own checkout.
func (s Source) Local() bool {
	return s.Kind == SourceGitRepository && (s.Name == DefaultGitSource || s.Self)
}

// GitSource is a GitRepository's spec, as source-controller fetches it.
type GitSource struct {
	// URL is spec.url.
	URL string
	// Branch, Tag, Semver, RefName and Commit are spec.ref's branch,
	// tag, semver, name and commit.
	Branch, Tag, Semver, RefName, Commit string
	// Ignore is spec.ignore; nil when unset.
	Ignore *string `json:",omitempty"`
	// SecretRef names spec.secretRef's Secret, "" when unset.
	SecretRef string `json:",omitempty"`
	// Credentials are that Secret's data. Private: they are never
	// logged, shown or kept (see Credentials).
	Credentials Credentials `json:"-"`
}

// BucketSource is a Bucket's spec, as source-controller fetches it.
type BucketSource struct {
	// Provider is spec.provider: generic or aws.
	Provider string
	// BucketName, Endpoint, Region and Prefix are the spec fields of the
	// same names.
	BucketName, Endpoint, Region, Prefix string
	// Insecure is spec.insecure: the endpoint is plain http.
	Insecure bool `json:",omitempty"`
	// Ignore is spec.ignore; nil when unset.
	Ignore *string `json:",omitempty"`
	// SecretRef names spec.secretRef's Secret, "" when unset.
	SecretRef string `json:",omitempty"`
	// Credentials are that Secret's data (accesskey, secretkey).
	// Private, as GitSource's.
	Credentials Credentials `json:"-"`
}

// Credentials are the data of a source's spec.secretRef Secret. They
// reach only the fetch: they print as a count of keys, and an
// environment that holds any is never kept in the render cache.
type Credentials map[string][]byte

// String names how many keys there are, never their values.
func (c Credentials) String() string { return fmt.Sprintf("credentials(%d keys)", len(c)) }

// GoString keeps the values out of %#v too.
func (c Credentials) GoString() string { return c.String() }

// Artifact is the artifact source-controller made of a source
// (status.artifact): a tarball at URL whose sha256 is Digest, of the
// source's Revision.
type Artifact struct {
	URL      string
	Digest   string
	Revision string
}

// Identity is the key of the environment's state, contracts, held plans and
// history: clientId/environment.
func (e *Environment) Identity() string { return e.Client + "/" + e.Name }

// HasCredentials reports whether any stack's source holds credentials.
func (e *Environment) HasCredentials() bool {
	for _, s := range e.Stacks {
		if (s.Source.Git != nil && s.Source.Git.Credentials != nil) || (s.Source.Bucket != nil && s.Source.Bucket.Credentials != nil) {
			return true
		}
	}
	return false
}
