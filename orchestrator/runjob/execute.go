package runjob

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/strata-iac/strata/orchestrator/envstores"
	"github.com/strata-iac/strata/orchestrator/source/artifact"

	securejoin "github.com/cyphar/filepath-securejoin"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/orchestrator/controller"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/kube"
	"github.com/strata-iac/strata/orchestrator/lineage"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/source"
	"github.com/strata-iac/strata/policy"
)

// Config is the runner pod's own.
type Config struct {
	// Tofu is the tofu binary.
	Tofu string
	// StateDir is the pod's state directory (an emptyDir): workspaces,
	// the plugin cache, and the stores the settings keep locally.
	StateDir string
	// Logger receives the run's log lines.
	Logger *slog.Logger
	// Timeout and ShutdownGrace are the run's (runner's defaults when
	// zero).
	Timeout, ShutdownGrace time.Duration
	// Records keeps the run's history and held plans; nil keeps them under
	// StateDir, which a runner pod loses (reconcile.Options.Records).
	Records envstores.Records
	// Secrets, when set, writes the Secrets and ConfigMaps of the run's namespace that
	// the run leaves there, owned by its object: the plan Secret the Tofu
	// Controller keeps (controller.SavePlan). Nil writes none.
	Secrets controller.PlanWriter
}

// Execute runs req in this process, through the controller's in-process
// executor, and returns its outcome, with the contract it published to a
// local store. A run that could not begin (its code could not be fetched,
// a store could not be opened) is a failed outcome that says why.
func Execute(ctx context.Context, req Request, cfg Config) Result {
	if req.Run.Stack == nil {
		return Result{Outcome: failed("", errors.New("run request: no stack"))}
	}
	name := req.Run.Stack.Name
	p, err := prepare(ctx, req, cfg)
	if err != nil {
		return Result{Outcome: failed(name, fmt.Errorf("prepare the run of stack %s: %w", name, err))}
	}
	defer p.cleanup()
	run := req.Run
	dir, err := securejoin.SecureJoin(p.root, req.Path)
	if err != nil {
		return Result{Outcome: failed(name, fmt.Errorf("stack %s: path %q: %w", name, req.Path, err))}
	}
	run.Artifact.Dir, run.Artifact.Root = dir, p.root
	if cfg.Secrets != nil && run.UID != "" {
		run.SavePlan = controller.SavePlan(cfg.Secrets, run.Owner())
	}
	out, err := controller.InProcess{Runner: p.runner}.Execute(ctx, run)
	if err != nil {
		return Result{Outcome: failed(name, err)}
	}
	res := Result{Outcome: out}
	if s := req.Run.Stack; p.local && s.Produces != "" && out.Result.Run.Result.Converged() {
		doc, err := p.stores.Contracts.Get(ctx, contracts.Key(p.stores.ContractPrefix, s.Produces))
		if err == nil {
			res.Contract = &doc
		}
	}
	return res
}

// prepared is a run ready to go: the runner, the code's root, the
// stores, and whether the contract store is the pod's own.
type prepared struct {
	runner  *runner.Runner
	root    string
	stores  *envstores.Stores
	local   bool
	cleanup func()
}

// prepare fetches the stack's code and builds the runner: the
// environment's stores under the pod's state directory, the default
// policy bundle with the environment's IAM allow-list, and the request's
// state backend.
func prepare(ctx context.Context, req Request, cfg Config) (*prepared, error) {
	if err := os.MkdirAll(cfg.StateDir, 0o700); err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp(cfg.StateDir, "source-")
	if err != nil {
		return nil, err
	}
	cleanup := func() { _ = os.RemoveAll(work) }
	set := req.Settings
	set.StateDir = cfg.StateDir
	env := &environment.Environment{Client: req.Run.Client, Name: req.Run.Env, Class: req.Run.Class}
	st, err := envstores.OpenStores(ctx, env, set, cfg.Records)
	if err != nil {
		cleanup()
		return nil, err
	}
	// The code is the source's artifact, or, once the source is gone, the
	// one the stack's last run left kept in the records (artifact.KeptURL).
	fetcher := &artifact.Fetcher{CacheDir: work}
	if kept, ok := st.History.(artifact.Kept); ok {
		fetcher.Kept = kept
	}
	a := req.Run.Artifact
	root, err := fetcher.Fetch(ctx, a.URL, a.Digest)
	if err != nil {
		_ = st.Close()
		cleanup()
		return nil, &source.FetchError{Stack: req.Run.Stack.Name, Err: err}
	}
	local := set.Contracts.Store == "" || set.Contracts.Store == environment.ContractsLocal
	if local {
		for name, doc := range req.Contracts {
			if err := st.Contracts.Put(ctx, contracts.Key(st.ContractPrefix, name), doc); err != nil {
				_ = st.Close()
				cleanup()
				return nil, err
			}
		}
	}
	var pol runner.Policy
	if engine, err := policy.Load(ctx, policy.Options{NoDefault: req.NoDefaultPolicy, IAMAllowedModules: set.IAMAllowedModules}); err != nil {
		pol = runner.FailingPolicy(err)
	} else {
		pol = engine
	}
	r := runner.New(runner.Config{
		HashKey:        req.HashKey,
		Tofu:           cfg.Tofu,
		StateDir:       cfg.StateDir,
		Contracts:      st.Contracts,
		ContractPrefix: st.ContractPrefix,
		Schemas:        lineage.New(cfg.StateDir, env.Client, env.Name),
		History:        st.History,
		Approvals:      st.Approvals,
		Backend:        req.Backend,
		Policy:         pol,
		Logger:         cfg.Logger,
		Timeout:        cfg.Timeout,
		ShutdownGrace:  cfg.ShutdownGrace,
		DriftInterval:  set.DriftInterval,
		StackIntervals: req.StackIntervals,
		ProviderMirror: set.ProviderMirror,
		// The state's lock, when the kubernetes backend keeps it.
		KubernetesLocks: kube.ReadStateLock,
		// The pod's environment is the object's runnerPodTemplate's.
		PodEnv: true,
	})
	return &prepared{
		runner: r, root: root, stores: st, local: local,
		cleanup: func() { _ = st.Close(); cleanup() },
	}, nil
}

// failed is the outcome of a run that could not begin: FetchFailed when
// its code could not be fetched.
func failed(stack string, err error) controller.Outcome {
	var fetch *source.FetchError
	return controller.NewOutcome(runner.Result{
		Stack:       stack,
		Run:         history.Run{Stack: stack, Result: history.ResultFailed},
		Message:     err.Error(),
		FetchFailed: errors.As(err, &fetch),
	}, err)
}
