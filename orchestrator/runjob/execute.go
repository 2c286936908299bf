package runjob

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	securejoin "github.com/cyphar/filepath-securejoin"

	"github.com/strata-iac/strata/orchestrator"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/lineage"
	"github.com/strata-iac/strata/orchestrator/runner"
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
}

// Execute runs req in this process and returns its outcome. The error is
// the run's (a *runner.WaitingError or *runner.HeldError among them), or
// why it could not run; the outcome says how the stack ended either way.
func Execute(ctx context.Context, req Request, cfg Config) (Outcome, error) {
	out := Outcome{Result: string(history.ResultFailed)}
	if req.Run.Stack == nil {
		return out, errors.New("run request: no stack")
	}
	out.Stack = req.Run.Stack.Name
	fail := func(err error) (Outcome, error) {
		out.Message = short(err.Error())
		return out, err
	}
	if err := os.MkdirAll(cfg.StateDir, 0o700); err != nil {
		return fail(err)
	}
	work, err := os.MkdirTemp(cfg.StateDir, "source-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(work)
	if err := fetch(ctx, req.Source, work); err != nil {
		return fail(err)
	}
	root := filepath.Join(work, "src")
	dir, err := securejoin.SecureJoin(root, req.Source.Path)
	if err != nil {
		return fail(fmt.Errorf("stack %s: path %q: %w", out.Stack, req.Source.Path, err))
	}
	set := req.Settings
	set.StateDir = cfg.StateDir
	env := &environment.Environment{Client: req.Run.Client, Name: req.Run.Env, Class: req.Run.Class}
	st, err := orchestrator.OpenStores(ctx, env, set)
	if err != nil {
		return fail(err)
	}
	defer st.Close()
	var pol runner.Policy
	engine, err := policy.Load(ctx, policy.Options{IAMAllowedModules: set.IAMAllowedModules})
	if err != nil {
		pol = runner.FailingPolicy(err)
	} else {
		pol = engine
	}
	r := runner.New(runner.Config{
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
		ProviderMirror: set.ProviderMirror,
	})
	run := req.Run
	run.Artifact.Dir, run.Artifact.Root = dir, root
	res, err := r.Run(ctx, run)
	out.Result = string(res.Run.Result)
	out.Run = res.Run.Number
	out.PlanID = res.Run.PlanID
	out.Message = short(res.Message)
	if err != nil && out.Message == "" {
		out.Message = short(err.Error())
	}
	return out, err
}

// short cuts a message to MaxMessage bytes, on a rune boundary.
func short(s string) string {
	if len(s) <= MaxMessage {
		return s
	}
	cut := MaxMessage
	for cut > 0 && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
