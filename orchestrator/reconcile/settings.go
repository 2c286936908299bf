package reconcile

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/scheduler"
	"github.com/strata-iac/strata/policy"
)

// settings are a reconcile's Options, settled once against its
// environment: the environment's settings with the options' overrides
// applied, and what each step takes of the rest.
type settings struct {
	environment.Settings
	log *slog.Logger
	// limit is the environment's runner limit; pool, when set, the limit
	// shared with other environments' reconciles.
	limit int
	pool  *scheduler.Pool
	// records keep the history and held plans.
	records envstores.Records
	// policy is how the policies load (Options.PolicyDirs).
	policy policy.Options
	// registries and dockerConfig reach the OCI registries.
	registries   []string
	dockerConfig string
	// tofu, hashKey, timeout, shutdownGrace, stackIntervals and retryWait
	// are the runner's (Options).
	tofu           string
	hashKey        []byte
	timeout        time.Duration
	shutdownGrace  time.Duration
	stackIntervals bool
	retryWait      bool
	// kubernetesLocks is Options'.
	kubernetesLocks runner.KubernetesLockReader
	// removable, deleted, makeRuns and only are Options'.
	removable func(stack string) bool
	deleted   func(stack string) *environment.Stack
	makeRuns  func(runner.Config) runner.StackRunner
	only      func(stack string) bool
}

// settle turns opts into the reconcile's settings for env.
func settle(env *environment.Environment, opts Options) (settings, error) {
	set, err := opts.Settings(env)
	if err != nil {
		return settings{}, err
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	limit := set.MaxRunners
	if opts.Runners != nil {
		// The option sized the shared pool; the environment keeps to its
		// own setting.
		limit = env.Settings.MaxRunners
	}
	records := opts.Records
	if records == nil {
		records = envstores.FileRecords{}
	}
	return settings{
		Settings:        set,
		log:             log,
		limit:           limit,
		pool:            opts.Runners,
		records:         records,
		policy:          policy.Options{Dirs: opts.PolicyDirs, NoDefault: opts.NoDefaultPolicy, IAMAllowedModules: set.IAMAllowedModules},
		registries:      opts.InsecureRegistries,
		dockerConfig:    opts.DockerConfig,
		tofu:            opts.Tofu,
		hashKey:         opts.HashKey,
		timeout:         opts.Timeout,
		shutdownGrace:   opts.ShutdownGrace,
		stackIntervals:  opts.StackIntervals,
		retryWait:       opts.RetryWait,
		kubernetesLocks: opts.KubernetesLocks,
		removable:       opts.Removable,
		deleted:         opts.Deleted,
		makeRuns:        opts.Runs,
		only:            opts.Only,
	}, nil
}

// limitLine says the runner limit, for the run log's first line.
func (s settings) limitLine() string {
	if s.pool != nil {
		return fmt.Sprintf("at most %d at once, %d shared by every environment", s.limit, s.pool.Size())
	}
	return fmt.Sprintf("at most %d at once", s.limit)
}
