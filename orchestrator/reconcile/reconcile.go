package reconcile

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/contracts/stores"
	"github.com/strata-iac/strata/orchestrator/consumers"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/flux"
	"github.com/strata-iac/strata/orchestrator/graph"
	"github.com/strata-iac/strata/orchestrator/hashkey"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/lineage"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/scheduler"
	"github.com/strata-iac/strata/orchestrator/source"
	"github.com/strata-iac/strata/orchestrator/source/artifact"
	"github.com/strata-iac/strata/orchestrator/source/bucket"
	"github.com/strata-iac/strata/orchestrator/source/git"
	"github.com/strata-iac/strata/orchestrator/source/oci"
	"github.com/strata-iac/strata/orchestrator/statedir"
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
	// KeepRuns and KeepDays say how long the history keeps each stack's
	// runs (see history.Retention); default the init keys keepRuns and
	// keepDays, else environment.DefaultKeepRuns and DefaultKeepDays.
	// KeepRuns 0 and KeepDays nil leave them as the init keys say.
	KeepRuns int
	KeepDays *int
	// Records keeps the history and held plans; nil is FileRecords, the
	// state directory.
	Records Records
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
	Runs func(runner.Config) StackRunner
	// Only, when set, selects the stacks that run: every other stack is
	// reported unchanged and no tofu process starts for it, and its
	// dependents run as if it had succeeded. strata plan --base runs only
	// the stacks a pull request changes, and the consumers of their
	// contracts.
	Only func(stack string) bool
}

// StackRunner runs one stack and records it; *runner.Runner is the
// in-process one.
type StackRunner interface {
	Run(ctx context.Context, req runner.Request) (runner.Result, error)
}

// Settings returns the environment's settings, parsed from its init
// ConfigMap when it loaded, with the options' overrides applied.
func (o Options) Settings(env *environment.Environment) (environment.Settings, error) {
	set, err := env.Settings.With(environment.Overrides{
		StateDir:         o.StateDir,
		MaxRunners:       o.MaxRunners,
		DriftInterval:    o.DriftInterval,
		ProviderMirror:   o.ProviderMirror,
		ProviderMirrorCA: o.ProviderMirrorCA,
		KeepRuns:         o.KeepRuns,
		KeepDays:         o.KeepDays,
	})
	if err != nil {
		return set, fmt.Errorf("settings of %s/%s: %w", env.Client, env.Name, err)
	}
	return set, nil
}

// Reconcile runs one environment: load, graph, resolve, schedule, report.
// The environment is rendered once and kept in the state directory until
// one of the render's inputs changes (flux.LoadCached). The error
// is for the reconcile as a whole (an invalid environment, a state
// directory that cannot be opened); what each stack did is in the report.
func Reconcile(ctx context.Context, dir string, op history.Operation, opts Options) (*Report, error) {
	started := time.Now()
	env, g, err := validateCached(ctx, dir, opts.StateDir)
	if err != nil {
		return nil, err
	}
	return reconcile(ctx, env, g, dir, op, opts, started)
}

// ReconcileEnvironment runs an environment that is already loaded and
// validated, with its graph: what strata controller builds from a
// namespace (flux.LoadNamespace, then Graph). dir names the
// environment in messages.
func ReconcileEnvironment(ctx context.Context, env *environment.Environment, g *graph.Graph, dir string, op history.Operation, opts Options) (*Report, error) {
	return reconcile(ctx, env, g, dir, op, opts, time.Now())
}

// Graph builds the graph of an environment that loaded without problems,
// with the graph's checks that Validate makes: no cycle, no edge to a
// higher layer.
func Graph(env *environment.Environment) (*graph.Graph, error) {
	g, problems := graph.Build(knownEdges(Nodes(env)))
	if len(problems) > 0 {
		problems.Sort()
		return nil, problems
	}
	return g, nil
}

func reconcile(ctx context.Context, env *environment.Environment, g *graph.Graph, dir string, op history.Operation, opts Options, started time.Time) (*Report, error) {
	set, err := opts.Settings(env)
	if err != nil {
		return nil, err
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	st, notes, err := openOrRepair(ctx, log, env, set, opts.Records)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	if err := claim(ctx, st.History, env, set); err != nil {
		return nil, err
	}
	// Each run's lines are also kept in a file of their own, for the web
	// view's stack page.
	log = slog.New(slog.NewMultiHandler(log.Handler(), runlog.NewFiles(RunLogDir(st.StateDir, env.Client, env.Name), nil)))
	limit := set.MaxRunners
	line := fmt.Sprintf("at most %d at once", limit)
	if opts.Runners != nil {
		// The option sized the shared pool; the environment keeps to its
		// own setting.
		limit = env.Settings.MaxRunners
		line = fmt.Sprintf("at most %d at once, %d shared by every environment", limit, opts.Runners.Size())
	}
	log.Info(fmt.Sprintf("%s %s/%s: %d stacks, %s", op, env.Client, env.Name, len(env.Stacks), line))
	for _, b := range env.Blocked {
		if b.Stack == "" {
			log.Warn(b.String(), "kustomization", b.Kustomization)
			continue
		}
		log.Warn(b.String(), "stack", b.Stack)
	}
	LogWarnings(log, env)
	// The policies are compiled when the first plan with changes needs
	// them: a reconcile whose plans change nothing never loads them.
	pol := newLazyPolicy(func(ctx context.Context) (runner.Policy, error) { return loadPolicy(ctx, set, opts) }, log)
	resolver := NewResolver(env, st.StateDir, opts)
	if kept, ok := st.History.(artifact.Kept); ok {
		// The code a deleted stack's last run left, once its source is
		// gone (remove).
		resolver.Artifacts.(*artifact.Fetcher).Kept = kept
	}
	arts := resolve(ctx, log, env, resolver)
	gone, err := removedStacks(ctx, env, st.History)
	if err != nil {
		return nil, err
	}
	if opts.Removable != nil {
		gone = slices.DeleteFunc(gone, func(last history.Run) bool { return !opts.Removable(last.Stack) })
	}
	backend := stateBackend(set.State)
	states, err := stateReader(ctx, backend)
	if err != nil {
		return nil, err
	}
	key := opts.HashKey
	if key == nil {
		if key, err = hashkey.Load(st.StateDir); err != nil {
			return nil, err
		}
	}
	cfg := runner.Config{
		HashKey:        key,
		StateReader:    states,
		OpenState:      openState,
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
		ShutdownGrace:  opts.ShutdownGrace,
		DriftInterval:  set.DriftInterval,
		StackIntervals: opts.StackIntervals,
		RetryWait:      opts.RetryWait,
		ProviderMirror: set.ProviderMirror,
		// The CA file is read by tofu, in the stacks' workspaces: absolute.
		ProviderMirrorCA: set.ProviderMirrorCA,
	}
	// Who reads which key of each contract, from the consumers' code: a
	// producer's plan that would break one of them is held, and the
	// review lists those that will re-plan.
	readers := consumers.Find(env, codeDirs(ctx, log, env, resolver, arts))
	var r StackRunner = runner.New(cfg)
	if opts.Runs != nil {
		r = opts.Runs(cfg)
	}
	if opts.Only != nil {
		r = only{r, opts.Only}
	}
	results := schedule(ctx, env, dir, g, arts, resolver, readers, op, r, limit, opts.Runners, log)
	removals := remove(ctx, env, dir, op, cfg, gone, deleted{opts.Deleted, resolver, r, log})
	rep := report(env, g, op, arts, results, removals, started)
	upstreams(rep, g, readers, env)
	rep.Notes = notes
	log.Info(rep.Line())
	return rep, nil
}

// Stores are an environment's stores: its contracts, and its history and
// held plans where its Records keep them.
type Stores struct {
	StateDir       string
	Contracts      contracts.Store
	ContractPrefix string
	History        History
	Approvals      Approvals
	fromSnapshot   bool
	closeHistory   func() error
}

// OpenStores opens the history, the held plans and the contract store of
// an environment, where its settings and recs say they are (nil:
// FileRecords, the state directory). A file history takes its write lock:
// one reconcile at a time.
func OpenStores(ctx context.Context, env *environment.Environment, set environment.Settings, recs Records) (*Stores, error) {
	return openStores(ctx, env, set, recs, false)
}

// OpenStoresReadOnly opens the stores for reading. It never waits for a
// running reconcile: while one holds a file history, the history reads as
// it was when that reconcile began (Stores.HistoryFromSnapshot).
func OpenStoresReadOnly(ctx context.Context, env *environment.Environment, set environment.Settings, recs Records) (*Stores, error) {
	return openStores(ctx, env, set, recs, true)
}

func openStores(ctx context.Context, env *environment.Environment, set environment.Settings, recs Records, readOnly bool) (*Stores, error) {
	if recs == nil {
		recs = FileRecords{}
	}
	cs, err := OpenContracts(ctx, env, set)
	if err != nil {
		return nil, err
	}
	as, err := recs.OpenApprovals(ctx, env, set)
	if err != nil {
		return nil, err
	}
	h, snap, closeHistory, err := recs.OpenHistory(ctx, env, set, readOnly)
	if err != nil {
		return nil, err
	}
	return &Stores{
		StateDir:       set.StateDir,
		Contracts:      cs,
		ContractPrefix: set.Contracts.Prefix,
		History:        h,
		Approvals:      as,
		fromSnapshot:   snap,
		closeHistory:   closeHistory,
	}, nil
}

// OpenContracts opens the environment's contract store, as its settings
// describe it. It makes no request.
func OpenContracts(ctx context.Context, env *environment.Environment, set environment.Settings) (contracts.Store, error) {
	c := set.Contracts
	dir, err := statedir.Join(set.StateDir, statedir.Contracts, env.Client, env.Name)
	if err != nil {
		return nil, fmt.Errorf("open contract store of %s/%s: %w", env.Client, env.Name, err)
	}
	cs, err := stores.Open(ctx, stores.Config{
		Kind:   c.Store,
		Dir:    dir,
		Region: c.Region, Endpoint: c.Endpoint, Bucket: c.Bucket, PathStyle: c.PathStyle, KMSKeyID: c.KMSKeyID,
	})
	if err != nil {
		return nil, fmt.Errorf("open contract store of %s/%s (%s): %w", env.Client, env.Name, flux.InitFile, err)
	}
	return cs, nil
}

// HistoryFile is the environment's history file under the state directory.
func HistoryFile(set environment.Settings) string {
	return filepath.Join(set.StateDir, statedir.History)
}

// openOrRepair opens the stores for a reconcile. A damaged history does
// not stop the reconcile: it is moved aside and a new one starts, which
// the log and the returned notes say.
func openOrRepair(ctx context.Context, log *slog.Logger, env *environment.Environment, set environment.Settings, recs Records) (*Stores, []string, error) {
	st, err := OpenStores(ctx, env, set, recs)
	if err == nil || !errors.Is(err, history.ErrCorrupt) {
		return st, nil, err
	}
	moved, rerr := history.Repair(HistoryFile(set), time.Now())
	if rerr != nil {
		return nil, nil, errors.Join(err, rerr)
	}
	note := fmt.Sprintf("%v; moved it to %s and started a new history: every stack is planned again, and stacks removed from the repository before now are no longer known", err, moved)
	log.Warn(note)
	st, err = OpenStores(ctx, env, set, recs)
	if err != nil {
		return nil, nil, err
	}
	return st, []string{note}, nil
}

// HistoryFromSnapshot reports whether the history reads the snapshot a
// running reconcile made when it began.
func (s *Stores) HistoryFromSnapshot() bool { return s.fromSnapshot }

// RunLogDir is where the lines of every run of an environment's stacks are
// kept: <state dir>/logs/<client>/<env>/<stack>/<run>.log.
func RunLogDir(stateDir, client, env string) string {
	return filepath.Join(stateDir, "logs", client, env)
}

// Close closes the stores. A history shared with other reconciles of this
// process stays open while they use it.
func (s *Stores) Close() error { return s.closeHistory() }

// resolved is a stack's source, pinned, or why it could not be.
type resolved struct {
	source source.Resolved
	err    error
}

// NewResolver returns the resolver for an environment's sources: this
// repository's checkout, OCI registries, other git repositories and
// buckets, each through a client whose cache is under the state
// directory.
func NewResolver(env *environment.Environment, stateDir string, opts Options) *source.Resolver {
	return &source.Resolver{
		Root: env.Root,
		Registry: oci.New(oci.Options{
			CacheDir:     filepath.Join(stateDir, "cache", "oci"),
			Insecure:     append(source.InsecureHosts(env), opts.InsecureRegistries...),
			DockerConfig: opts.DockerConfig,
		}),
		Artifacts: &artifact.Fetcher{CacheDir: filepath.Join(stateDir, "cache", "artifacts")},
		Git:       &git.Fetcher{CacheDir: filepath.Join(stateDir, "cache", "git")},
		Buckets:   &bucket.Fetcher{CacheDir: filepath.Join(stateDir, "cache", "buckets")},
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
func schedule(ctx context.Context, env *environment.Environment, envDir string, g *graph.Graph, arts map[string]resolved, resolver *source.Resolver, readers consumers.Index, op history.Operation, r StackRunner, limit int, pool *scheduler.Pool, log *slog.Logger) map[string]runner.Result {
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
	// A plan previews each consumer against the contract its producer's
	// plan would publish, when that is known before apply.
	var previewMu sync.Mutex
	previews := map[string]contracts.Document{}
	preview := func() map[string]contracts.Document {
		previewMu.Lock()
		defer previewMu.Unlock()
		return maps.Clone(previews)
	}
	results := make(chan runner.Result, len(tasks))
	errs := scheduler.RunShared(ctx, tasks, limit, pool, func(ctx context.Context, name string) error {
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
			Readers:   readers.Readers(stack.Produces),
			Reads:     readers.Of(name),
			Preview:   preview(),
			EnvDir:    envDir,
		})
		if res.Next != nil && stack.Produces != "" && op == history.OperationPlan {
			previewMu.Lock()
			previews[stack.Produces] = *res.Next
			previewMu.Unlock()
		}
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

type outcome struct {
	result runner.Result
	err    error
}
