package orchestrator

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/contracts/stores"
	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/graph"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/lineage"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/scheduler"
	"github.com/strata-iac/strata/orchestrator/source"
	"github.com/strata-iac/strata/orchestrator/source/oci"
	"github.com/strata-iac/strata/policy"
)

// DefaultMaxRunners bounds the tofu processes that run at once, as the
// seed's ResourceQuota does.
const DefaultMaxRunners = 10

// DefaultTimeout bounds one stack's run; DefaultDriftInterval is how long
// an unchanged stack goes without a plan.
const (
	DefaultTimeout       = runner.DefaultTimeout
	DefaultDriftInterval = runner.DefaultDriftInterval
)

// Options configure a reconcile.
type Options struct {
	// Tofu is the tofu binary.
	Tofu string
	// StateDir holds state, contracts, history and workspaces; <root>/.strata
	// when empty.
	StateDir string
	// MaxRunners bounds the tofu processes at once; 0 means the init key
	// maxRunners, else DefaultMaxRunners.
	MaxRunners int
	// Timeout bounds one stack's run (DefaultTimeout when zero).
	Timeout time.Duration
	// DriftInterval is how long an unchanged stack goes without a plan.
	DriftInterval time.Duration
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
}

// InitProviderMirror is the init ConfigMap key that names the provider
// network mirror when no --provider-mirror is given.
const InitProviderMirror = "providerMirror"

// InitIAMAllowedModules is the init ConfigMap key that lists, comma
// separated, the module addresses allowed to change IAM resources.
const InitIAMAllowedModules = "policyIAMAllowedModules"

// Reconcile runs one environment: load, graph, resolve, schedule, report.
// The error is for the reconcile as a whole (an invalid environment, a
// state directory that cannot be opened); what each stack did is in the
// report.
func Reconcile(ctx context.Context, dir string, op history.Operation, opts Options) (*Report, error) {
	started := time.Now()
	env, g, err := Validate(ctx, dir)
	if err != nil {
		return nil, err
	}
	backend, err := stateBackend(env)
	if err != nil {
		return nil, err
	}
	st, err := OpenStores(ctx, env, opts.StateDir)
	if err != nil {
		return nil, err
	}
	defer st.Close()

	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log.Info(fmt.Sprintf("%s %s/%s: %d stacks, at most %d at once", op, env.Client, env.Name, len(env.Stacks), maxRunners(opts, env)))
	pol, err := loadPolicy(ctx, env, opts)
	if err != nil {
		log.Error(fmt.Sprintf("policy failed to load: %v; every plan with changes is held", err))
	}
	resolver := NewResolver(env, st.StateDir, opts)
	arts := resolve(ctx, log, env, resolver)
	gone, err := removedStacks(ctx, env, st.History)
	if err != nil {
		return nil, err
	}
	cfg := runner.Config{
		Tofu:           opts.Tofu,
		StateDir:       st.StateDir,
		Contracts:      st.Contracts,
		ContractPrefix: st.ContractPrefix,
		Schemas:        lineage.New(st.StateDir, env.Client, env.Name),
		History:        st.History,
		Approvals:      st.Approvals,
		Backend:        backend,
		Policy:         pol,
		Logger:         log,
		Timeout:        opts.Timeout,
		DriftInterval:  opts.DriftInterval,
		ProviderMirror: cmp.Or(opts.ProviderMirror, env.Init[InitProviderMirror]),
		// The CA file is read by tofu, in the stacks' workspaces.
		ProviderMirrorCA: absOrEmpty(opts.ProviderMirrorCA),
	}
	results := schedule(ctx, env, dir, g, arts, resolver, op, cfg, maxRunners(opts, env), log)
	removals := remove(ctx, env, dir, op, cfg, gone)
	rep := report(env, g, op, arts, results, removals, started)
	log.Info(rep.Line())
	return rep, nil
}

// loadPolicy prepares the policy engine once for the whole reconcile. A
// policy that fails to load is not fatal to the reconcile: it is a
// runner.FailingPolicy, which holds every plan with changes (policies fail
// closed), and the error says why.
func loadPolicy(ctx context.Context, env *environment.Environment, opts Options) (runner.Policy, error) {
	var allowed []string
	for _, m := range strings.Split(env.Init[InitIAMAllowedModules], ",") {
		if m = strings.TrimSpace(m); m != "" {
			allowed = append(allowed, m)
		}
	}
	e, err := policy.Load(ctx, policy.Options{Dirs: opts.PolicyDirs, NoDefault: opts.NoDefaultPolicy, IAMAllowedModules: allowed})
	if err != nil {
		return runner.FailingPolicy(err), err
	}
	return e, nil
}

// Stores are the state directory's stores for one environment.
type Stores struct {
	StateDir       string
	Contracts      contracts.Store
	ContractPrefix string
	History        *history.Store
	Approvals      *approval.Store
}

// OpenStores opens the history, the held plans and the contract store of
// an environment. The contract store is the one the environment's init
// ConfigMap names (contractStore: local, ssm or s3).
func OpenStores(ctx context.Context, env *environment.Environment, stateDir string) (*Stores, error) {
	if stateDir == "" {
		stateDir = filepath.Join(env.Root, ".strata")
	}
	// tofu runs in each stack's workspace, so every path handed to it must
	// be absolute.
	stateDir, err := filepath.Abs(stateDir)
	if err != nil {
		return nil, fmt.Errorf("open state directory %s: %w", stateDir, err)
	}
	cs, err := stores.Open(ctx, env.Init, stateDir, env.Client, env.Name)
	if err != nil {
		return nil, fmt.Errorf("open contract store of %s/%s (%s): %w", env.Client, env.Name, environment.InitFile, err)
	}
	prefix, err := stores.Prefix(env.Init)
	if err != nil {
		return nil, fmt.Errorf("open contract store of %s/%s (%s): %w", env.Client, env.Name, environment.InitFile, err)
	}
	h, err := history.Open(ctx, filepath.Join(stateDir, "history.db"))
	if err != nil {
		return nil, err
	}
	return &Stores{
		StateDir:       stateDir,
		Contracts:      cs,
		ContractPrefix: prefix,
		History:        h,
		Approvals:      approval.New(filepath.Join(stateDir, "held")),
	}, nil
}

// Close closes the stores.
func (s *Stores) Close() error { return s.History.Close() }

// resolved is a stack's source, pinned, or why it could not be.
type resolved struct {
	source source.Resolved
	err    error
}

// NewResolver returns the resolver for an environment's sources: this
// repository's checkout, and OCI registries through a client whose cache
// is under the state directory.
func NewResolver(env *environment.Environment, stateDir string, opts Options) *source.Resolver {
	if stateDir == "" {
		stateDir = filepath.Join(env.Root, ".strata")
	}
	return &source.Resolver{
		Root: env.Root,
		Registry: oci.New(oci.Options{
			CacheDir:     filepath.Join(stateDir, "cache", "oci"),
			Insecure:     append(source.InsecureHosts(env), opts.InsecureRegistries...),
			DockerConfig: opts.DockerConfig,
		}),
	}
}

// resolve pins every stack's source to a version and digest. A stack whose
// source cannot be resolved does not run, and neither do its dependents;
// the others still do.
func resolve(ctx context.Context, log *slog.Logger, env *environment.Environment, r *source.Resolver) map[string]resolved {
	results := make([]resolved, len(env.Stacks))
	// Resolving asks registries for tags and digests: the stacks are
	// resolved side by side, a few at a time.
	var g errgroup.Group
	g.SetLimit(resolveParallelism)
	for i, s := range env.Stacks {
		g.Go(func() error {
			res, err := r.Resolve(ctx, s)
			results[i] = resolved{source: res, err: err}
			return nil
		})
	}
	_ = g.Wait() // every error is the stack's own, kept in its result
	out := make(map[string]resolved, len(env.Stacks))
	for i, s := range env.Stacks {
		res := results[i]
		if res.err != nil {
			log.Error(res.err.Error(), "stack", s.Name)
		} else if res.source.Constraint != "" && res.source.Constraint != res.source.Version {
			log.Debug(fmt.Sprintf("resolved %s to %s", res.source.Constraint, res.source.Origin), "stack", s.Name)
		}
		out[s.Name] = res
	}
	return out
}

// resolveParallelism bounds the sources resolved at once.
const resolveParallelism = 8

// schedule runs the stacks in graph order, and returns what each did.
func schedule(ctx context.Context, env *environment.Environment, envDir string, g *graph.Graph, arts map[string]resolved, resolver *source.Resolver, op history.Operation, cfg runner.Config, limit int, log *slog.Logger) map[string]runner.Result {
	r := runner.New(cfg)
	producers := make(map[string]string)
	for _, s := range env.Stacks {
		if s.Produces != "" {
			producers[s.Produces] = s.Name
		}
	}
	tasks := make([]scheduler.Task, 0, len(env.Stacks))
	for _, name := range g.Order() {
		t := scheduler.Task{Name: name}
		for _, e := range g.Deps(name) {
			t.Deps = append(t.Deps, e.To)
		}
		tasks = append(tasks, t)
	}
	results := make(chan runner.Result, len(tasks))
	errs := scheduler.Run(ctx, tasks, limit, func(ctx context.Context, name string) error {
		a := arts[name]
		if a.err != nil {
			return a.err
		}
		stack := env.Stack(name)
		art, err := resolver.Fetch(ctx, stack, a.source)
		if err != nil {
			log.Error(err.Error(), "stack", name)
			return err
		}
		res, err := r.Run(ctx, runner.Request{
			Operation: op,
			Client:    env.Client, Env: env.Name, Class: env.Class,
			Stack:     stack,
			Artifact:  art,
			Producers: producers,
			EnvDir:    envDir,
		})
		results <- res
		var held *runner.HeldError
		if errors.As(err, &held) {
			// A hold blocks nothing downstream: its contract is unchanged,
			// so its dependents run against the contract as it is, and
			// re-plan with cause upstream once the held plan is applied.
			return nil
		}
		return err
	})
	close(results)
	out := make(map[string]runner.Result, len(tasks))
	for res := range results {
		out[res.Stack] = res
	}
	for name, err := range errs {
		var skip *scheduler.SkipError
		if errors.As(err, &skip) && skip.Task == name {
			log.Warn(err.Error(), "stack", name)
		}
		if _, ran := out[name]; !ran {
			out[name] = notRun(name, err)
		}
	}
	return out
}

// maxRunners is the bound on tofu processes: the option, else the init
// key maxRunners (validated with the environment), else DefaultMaxRunners.
func maxRunners(opts Options, env *environment.Environment) int {
	if opts.MaxRunners > 0 {
		return opts.MaxRunners
	}
	if n, err := strconv.Atoi(strings.TrimSpace(env.Init[environment.InitMaxRunners])); err == nil && n > 0 {
		return n
	}
	return DefaultMaxRunners
}

func absOrEmpty(p string) string {
	if p == "" {
		return ""
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}
