package reconcile

import (
	"log/slog"
	"time"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/scheduler"
)

// DefaultMaxRunners caps the default runner limit, as the seed's
// ResourceQuota does.
const DefaultMaxRunners = environment.DefaultMaxRunners

// DefaultRunners is the runner limit when none is given: two tofu
// processes per CPU, at most DefaultMaxRunners.
func DefaultRunners() int { return environment.DefaultRunners() }

// DefaultTimeout bounds one stack's run; DefaultDriftInterval is how long
// an unchanged stack goes without a plan; DefaultShutdownGrace is how long
// an apply in flight may go on once strata is asked to stop.
const (
	DefaultTimeout       = runner.DefaultTimeout
	DefaultDriftInterval = runner.DefaultDriftInterval
	DefaultShutdownGrace = runner.DefaultShutdownGrace
)

// Options configure a reconcile. StateDir, MaxRunners, DriftInterval and
// the provider mirror override the environment's settings (see Settings).
type Options struct {
	// Tofu is the tofu binary.
	Tofu string
	// StateDir holds state, contracts, history and workspaces; <root>/.strata
	// when empty.
	StateDir string
	// HashKey keys the hashes of every run's inputs; when nil, the key
	// kept in the state directory (hashkey.Load), created on first use.
	HashKey []byte
	// MaxRunners bounds the tofu processes at once; 0 means the init key
	// maxRunners, else DefaultRunners(). With Runners, it is the size of
	// the shared pool, and the environment keeps to its own init key.
	MaxRunners int
	// Runners, when set, is a runner limit shared with reconciles of other
	// environments going on side by side: a stack starts when its
	// environment is under its own limit (the init key maxRunners, else
	// DefaultRunners()) and it got a runner from the pool. Environments
	// with stacks ready take runners in turn.
	Runners *scheduler.Pool
	// Timeout bounds one stack's run (DefaultTimeout when zero).
	Timeout time.Duration
	// ShutdownGrace is how long an apply in flight may go on once the
	// context is cancelled (runner.DefaultShutdownGrace).
	ShutdownGrace time.Duration
	// DriftInterval is how long an unchanged stack goes without a plan:
	// for every stack, or with StackIntervals only for the stacks without
	// a spec.interval of their own.
	DriftInterval  time.Duration
	StackIntervals bool
	// RetryWait is set by the reconcile loop: a stack whose last run
	// failed is run again no sooner than its spec.retryInterval after it
	// (environment.DefaultRetryInterval when unset). A one-shot plan or
	// apply runs it at once.
	RetryWait bool
	// Logger receives the run log lines.
	Logger *slog.Logger
	// PolicyDirs are policy directories loaded on top of the default bundle,
	// or instead of it with NoDefaultPolicy.
	PolicyDirs      []string
	NoDefaultPolicy bool
	// InsecureRegistries are registry hosts that may be reached over plain
	// http, on top of those whose OCIRepository sets spec.insecure.
	InsecureRegistries []string
	// DockerConfig is the Docker config.json that holds registry
	// credentials (default: $DOCKER_CONFIG/config.json, ~/.docker).
	DockerConfig string
	// ProviderMirror is the https URL of a provider network mirror (see
	// registry-mirror); default the init key providerMirror. Every init
	// installs providers from it, through the shared plugin cache.
	// ProviderMirrorCA is a PEM file of the CAs tofu trusts for it.
	ProviderMirror   string
	ProviderMirrorCA string
	// KubernetesLocks reads the locks of states the kubernetes backend
	// keeps (runner.Config's); nil reads none.
	KubernetesLocks runner.KubernetesLockReader
	// KeepRuns and KeepDays say how long the history keeps each stack's
	// runs (see history.Retention); default the init keys keepRuns and
	// keepDays, else environment.DefaultKeepRuns and DefaultKeepDays.
	// KeepRuns 0 and KeepDays nil leave them as the init keys say.
	KeepRuns int
	KeepDays *int
	// Records keeps the history and held plans; nil is FileRecords, the
	// state directory.
	Records envstores.Records
	// Removable, when set, says which of the stacks that left the
	// environment have their resources destroyed (a destroy plan through
	// policy); the others are left as they are. Every such stack is
	// destroyed when nil. strata controller destroys only the stacks whose
	// Terraform object was deleted with spec.destroyResourcesOnDeletion.
	Removable func(stack string) bool
	// Deleted, when set, returns a stack that left the environment as the
	// Terraform object that was deleted still describes it, nil when none
	// does. Such a stack is destroyed from that code, by a run handed to
	// Runs like any other (runner.Request.Removal), not in the workspace
	// its last run left on this machine: strata controller's runner Jobs
	// keep no workspace.
	Deleted func(stack string) *environment.Stack
	// Runs makes what runs each stack from the reconcile's runner
	// configuration: runner.New (tofu in this process) when nil. strata
	// controller hands the runs to its Executor this way.
	Runs func(runner.Config) runner.StackRunner
	// Only, when set, selects the stacks that run: every other stack is
	// reported unchanged and no tofu process starts for it, and its
	// dependents run as if it had succeeded. strata plan --base runs only
	// the stacks a pull request changes, and the consumers of their
	// contracts.
	Only func(stack string) bool
}

// Settings returns the environment's settings, parsed from its init
// ConfigMap when it loaded, with the options' overrides applied.
func (o Options) Settings(env *environment.Environment) (environment.Settings, error) {
	return env.SettingsWith(environment.Overrides{
		StateDir:         o.StateDir,
		MaxRunners:       o.MaxRunners,
		DriftInterval:    o.DriftInterval,
		ProviderMirror:   o.ProviderMirror,
		ProviderMirrorCA: o.ProviderMirrorCA,
		KeepRuns:         o.KeepRuns,
		KeepDays:         o.KeepDays,
	})
}
