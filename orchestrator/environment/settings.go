package environment

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/strata-iac/strata/orchestrator/diag"
)

// The init ConfigMap's keys. Every key strata reads is named here and read
// only by ParseSettings and checkInit; the rest of strata reads Settings.
// Flux ignores the keys it does not substitute.
const (
	InitClientID         = "clientId"
	InitEnvironment      = "environment"
	InitEnvironmentClass = "environmentClass"
	// InitRegion is the environment's AWS region, the default of the
	// state and contract regions.
	InitRegion = "region"
	// InitMaxRunners bounds the environment's tofu processes.
	InitMaxRunners = "maxRunners"

	// InitStateBackend is local (the default) or s3: where the state of
	// stacks without a backendConfig.customConfiguration goes.
	InitStateBackend = "stateBackend"
	// InitStateBucket is the s3 backend's bucket; required for s3.
	InitStateBucket = "stateBucket"
	// InitStateRegion is its region; default the init key region.
	InitStateRegion = "stateRegion"
	// InitStateEndpoint points it at an S3-compatible service.
	InitStateEndpoint = "stateEndpoint"

	// InitContractStore names the contract store: local (the default),
	// ssm or s3.
	InitContractStore = "contractStore"
	// InitContractPrefix is where contracts live; default
	// DefaultContractPrefix.
	InitContractPrefix = "contractPrefix"
	// InitContractRegion is the store's AWS region; default the init key
	// region.
	InitContractRegion = "contractRegion"
	// InitContractEndpoint replaces the SSM or S3 endpoint, for compatible
	// services.
	InitContractEndpoint = "contractEndpoint"
	// InitContractBucket is the s3 store's bucket; required for s3.
	InitContractBucket = "contractBucket"
	// InitContractPathStyle ("true" or "false") addresses the s3 store's
	// bucket in the path; default true when an endpoint is set.
	InitContractPathStyle = "contractPathStyle"
	// InitContractKMSKeyID is the KMS key for SSM SecureStrings and S3
	// SSE-KMS; default the account's default keys.
	InitContractKMSKeyID = "contractKmsKeyId"

	// InitProviderMirror names the provider network mirror (https URL).
	InitProviderMirror = "providerMirror"
	// InitIAMAllowedModules lists, comma separated, the module addresses
	// allowed to change IAM resources.
	InitIAMAllowedModules = "policyIAMAllowedModules"

	// InitKeepRuns and InitKeepDays say how long the history keeps a
	// stack's runs: while one of its last keepRuns, or younger than
	// keepDays days ("0": by count alone).
	InitKeepRuns = "keepRuns"
	InitKeepDays = "keepDays"
)

// State backends, the values of InitStateBackend.
const (
	StateLocal = "local"
	StateS3    = "s3"
)

// Contract stores, the values of InitContractStore.
const (
	ContractsLocal = "local"
	ContractsSSM   = "ssm"
	ContractsS3    = "s3"
)

// Defaults of the settings.
const (
	// StateDirName is the state directory's name at the repository root,
	// when no --state-dir names another.
	StateDirName = ".strata"
	// DefaultMaxRunners caps the default runner limit (DefaultRunners), as
	// the seed's ResourceQuota does.
	DefaultMaxRunners = 10
	// DefaultContractPrefix is where contracts live without
	// contractPrefix.
	DefaultContractPrefix = "/configuration"
	// DefaultDriftInterval is how long an unchanged stack goes without a
	// plan when no --drift-interval is given.
	DefaultDriftInterval = time.Hour
	// DefaultKeepRuns and DefaultKeepDays are how long the history keeps
	// a stack's runs without keepRuns and keepDays: while one of its last
	// 100 runs, or younger than 14 days.
	DefaultKeepRuns = 100
	DefaultKeepDays = 14
)

// DefaultRunners bounds the tofu processes when neither the command line
// nor the init key maxRunners does: two per CPU (a plan waits on its state
// and providers about as long as it computes), at most DefaultMaxRunners.
func DefaultRunners() int {
	return min(2*runtime.NumCPU(), DefaultMaxRunners)
}

// Settings are strata's own settings for one environment: the init
// ConfigMap's keys, parsed and checked once while the environment loads,
// with the command line's Overrides applied on top.
type Settings struct {
	// StateDir holds state, contracts, history, held plans and workspaces.
	// Absolute; <Root>/.strata unless overridden.
	StateDir string
	// State is where stacks without a customConfiguration keep state.
	State StateSettings
	// Contracts is the environment's contract store.
	Contracts ContractSettings
	// MaxRunners bounds the tofu processes at once (at least 1).
	MaxRunners int
	// DriftInterval is how long an unchanged stack goes without a plan;
	// 0 plans every stack every time.
	DriftInterval time.Duration
	// ProviderMirror is the https URL of a provider network mirror, or "";
	// ProviderMirrorCA an absolute PEM file of the CAs tofu trusts for it.
	ProviderMirror   string
	ProviderMirrorCA string
	// IAMAllowedModules are the module addresses allowed to change IAM
	// resources.
	IAMAllowedModules []string
	// KeepRuns (at least 1) and KeepDays (0: by count alone) say how long
	// the history keeps a stack's runs: while one of its last KeepRuns,
	// or younger than KeepDays days.
	KeepRuns int
	KeepDays int
}

// StateSettings choose the default state backend.
type StateSettings struct {
	// Backend is StateLocal or StateS3.
	Backend string
	// Bucket, Region and Endpoint locate the s3 backend.
	Bucket, Region, Endpoint string
}

// ContractSettings choose the contract store.
type ContractSettings struct {
	// Store is ContractsLocal, ContractsSSM or ContractsS3.
	Store string
	// Prefix is where contracts live: one leading slash, none trailing.
	Prefix string
	// Region, Endpoint, Bucket and KMSKeyID locate the ssm or s3 store.
	Region, Endpoint, Bucket, KMSKeyID string
	// PathStyle addresses the s3 bucket in the path.
	PathStyle bool
}

// Overrides are the command line's settings, which win over the init
// ConfigMap's. A zero field overrides nothing, except DriftInterval, which
// always applies (0 plans every stack every time).
type Overrides struct {
	StateDir         string
	MaxRunners       int
	DriftInterval    time.Duration
	ProviderMirror   string
	ProviderMirrorCA string
	// KeepRuns overrides when above 0, KeepDays when not nil.
	KeepRuns int
	KeepDays *int
}

// SettingsWith returns the environment's settings with the overrides
// applied (Settings.With); the error names the environment.
func (e *Environment) SettingsWith(o Overrides) (Settings, error) {
	set, err := e.Settings.With(o)
	if err != nil {
		return set, fmt.Errorf("settings of %s/%s: %w", e.Client, e.Name, err)
	}
	return set, nil
}

// With returns the settings with the overrides applied. Relative paths are
// made absolute, because tofu reads them from the stacks' workspaces.
func (s Settings) With(o Overrides) (Settings, error) {
	if o.StateDir != "" {
		abs, err := filepath.Abs(o.StateDir)
		if err != nil {
			return s, fmt.Errorf("state directory %s: %w", o.StateDir, err)
		}
		s.StateDir = abs
	}
	if o.MaxRunners > 0 {
		s.MaxRunners = o.MaxRunners
	}
	s.DriftInterval = o.DriftInterval
	if o.ProviderMirror != "" {
		s.ProviderMirror = o.ProviderMirror
	}
	if o.KeepRuns > 0 {
		s.KeepRuns = o.KeepRuns
	}
	if o.KeepDays != nil {
		s.KeepDays = *o.KeepDays
	}
	if o.ProviderMirrorCA != "" {
		abs, err := filepath.Abs(o.ProviderMirrorCA)
		if err != nil {
			return s, fmt.Errorf("provider mirror CA %s: %w", o.ProviderMirrorCA, err)
		}
		s.ProviderMirrorCA = abs
	}
	return s, nil
}

// DefaultSettings are the settings of an environment whose init ConfigMap
// sets none of strata's keys, in the repository at root.
func DefaultSettings(root string) Settings {
	return Settings{
		StateDir:      filepath.Join(root, StateDirName),
		State:         StateSettings{Backend: StateLocal},
		Contracts:     ContractSettings{Store: ContractsLocal, Prefix: DefaultContractPrefix},
		MaxRunners:    DefaultRunners(),
		DriftInterval: DefaultDriftInterval,
		KeepRuns:      DefaultKeepRuns,
		KeepDays:      DefaultKeepDays,
	}
}

// parseSettings reads strata's settings from data, the init ConfigMap's,
// of the environment in the repository at root; file and object name the
// ConfigMap in problems. Every key with a bad value is a problem with its
// fix; the settings returned then hold the defaults for those keys.
func ParseSettings(root, file, object string, data map[string]string) (Settings, diag.Problems) {
	s := DefaultSettings(root)
	var problems diag.Problems
	in := " in " + file
	bad := func(message, fix string) {
		problems = append(problems, diag.Problem{File: file, Object: object, Message: message, Fix: fix})
	}
	get := func(k string) string { return strings.TrimSpace(data[k]) }
	region := get(InitRegion)

	if v, ok := data[InitMaxRunners]; ok {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err != nil || n < 1 {
			bad(fmt.Sprintf("data.%s is %q; it must be a whole number of tofu processes, at least 1", InitMaxRunners, v),
				fmt.Sprintf("set %s to a number such as \"10\"%s, or remove it", InitMaxRunners, in))
		} else {
			s.MaxRunners = n
		}
	}

	for _, k := range []struct {
		key      string
		min, def int
		to       *int
		what     string
	}{
		{InitKeepRuns, 1, DefaultKeepRuns, &s.KeepRuns, "a whole number of runs of each stack, at least 1"},
		{InitKeepDays, 0, DefaultKeepDays, &s.KeepDays, "a whole number of days, 0 to keep by count alone"},
	} {
		if v, ok := data[k.key]; ok {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err != nil || n < k.min {
				bad(fmt.Sprintf("data.%s is %q; it must be %s", k.key, v, k.what),
					fmt.Sprintf("set %s to a number such as \"%d\"%s, or remove it", k.key, k.def, in))
			} else {
				*k.to = n
			}
		}
	}

	st := StateSettings{Backend: get(InitStateBackend), Bucket: get(InitStateBucket), Region: get(InitStateRegion), Endpoint: get(InitStateEndpoint)}
	if st.Region == "" {
		st.Region = region
	}
	switch st.Backend {
	case "", StateLocal:
		st.Backend = StateLocal
		s.State = st
	case StateS3:
		ok := true
		if st.Bucket == "" {
			ok = false
			bad(fmt.Sprintf("data.%s is s3 but data.%s is not set", InitStateBackend, InitStateBucket),
				fmt.Sprintf("set %s to the bucket that holds the stacks' state%s, or set %s to %s", InitStateBucket, in, InitStateBackend, StateLocal))
		}
		if st.Region == "" {
			ok = false
			bad(fmt.Sprintf("data.%s is s3 but neither data.%s nor data.%s is set", InitStateBackend, InitStateRegion, InitRegion),
				fmt.Sprintf("set %s (or %s) to the state bucket's AWS region%s", InitStateRegion, InitRegion, in))
		}
		if ok {
			s.State = st
		}
	default:
		bad(fmt.Sprintf("data.%s is %q; it must be %s or %s", InitStateBackend, st.Backend, StateLocal, StateS3),
			fmt.Sprintf("set %s to %q (files under the state directory) or %q (with %s and %s)%s, or remove it", InitStateBackend, StateLocal, StateS3, InitStateBucket, InitStateRegion, in))
	}

	c := ContractSettings{
		Store: get(InitContractStore), Region: get(InitContractRegion), Endpoint: get(InitContractEndpoint),
		Bucket: get(InitContractBucket), KMSKeyID: get(InitContractKMSKeyID),
	}
	if c.Region == "" {
		c.Region = region
	}
	cOK := true
	prefix, err := contractPrefix(data[InitContractPrefix])
	if err != nil {
		cOK = false
		bad(fmt.Sprintf("data.%s is %q: %v", InitContractPrefix, data[InitContractPrefix], err),
			fmt.Sprintf("set %s to a path such as %q%s, or remove it", InitContractPrefix, DefaultContractPrefix, in))
	}
	c.Prefix = prefix
	c.PathStyle = c.Endpoint != ""
	if v := get(InitContractPathStyle); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			cOK = false
			bad(fmt.Sprintf("data.%s is %q; it must be true or false", InitContractPathStyle, v),
				fmt.Sprintf("set %s to \"true\" or \"false\"%s, or remove it", InitContractPathStyle, in))
		}
		c.PathStyle = b
	}
	switch c.Store {
	case "", ContractsLocal:
		c.Store = ContractsLocal
	case ContractsSSM:
	case ContractsS3:
		if c.Bucket == "" {
			cOK = false
			bad(fmt.Sprintf("data.%s is s3 but data.%s is not set", InitContractStore, InitContractBucket),
				fmt.Sprintf("set %s to the bucket that holds the contracts%s, or choose another %s", InitContractBucket, in, InitContractStore))
		}
	default:
		cOK = false
		bad(fmt.Sprintf("data.%s is %q; it must be %s, %s or %s", InitContractStore, c.Store, ContractsLocal, ContractsSSM, ContractsS3),
			fmt.Sprintf("set %s to %q (files under the state directory), %q or %q%s, or remove it", InitContractStore, ContractsLocal, ContractsSSM, ContractsS3, in))
	}
	if cOK {
		s.Contracts = c
	}

	if v := get(InitProviderMirror); v != "" {
		if !strings.HasPrefix(v, "https://") {
			bad(fmt.Sprintf("data.%s is %q; tofu reaches a provider mirror only over https", InitProviderMirror, v),
				fmt.Sprintf("set %s to the mirror's https URL, such as \"https://mirror.example.com:8443/\"%s, or remove it", InitProviderMirror, in))
		} else {
			s.ProviderMirror = v
		}
	}
	for _, m := range strings.Split(data[InitIAMAllowedModules], ",") {
		if m = strings.TrimSpace(m); m != "" {
			s.IAMAllowedModules = append(s.IAMAllowedModules, m)
		}
	}
	return s, problems
}

// contractPrefix normalises a contract prefix: one leading slash, none
// trailing. An empty, "." or ".." segment is an error.
func contractPrefix(raw string) (string, error) {
	if strings.TrimSpace(raw) == "" {
		return DefaultContractPrefix, nil
	}
	p := "/" + strings.Trim(raw, "/")
	if p == "/" {
		return p, nil
	}
	for _, seg := range strings.Split(p[1:], "/") {
		if seg == "" || seg == "." || seg == ".." {
			return DefaultContractPrefix, fmt.Errorf("segment %q is not allowed", seg)
		}
	}
	return p, nil
}
