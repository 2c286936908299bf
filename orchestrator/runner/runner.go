package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/lineage"
	"github.com/strata-iac/strata/orchestrator/source"
	"github.com/strata-iac/strata/orchestrator/tofu"
)

// Operation is what a run does with its plan.
type Operation string

// Operations.
const (
	// OpPlan plans and reports, and changes nothing.
	OpPlan Operation = "plan"
	// OpApply plans, then applies the plan when it is allowed.
	OpApply Operation = "apply"
)

// Results of a run, as recorded in history.
const (
	ResultApplied   = "applied"
	ResultPlanned   = "planned"
	ResultNoChanges = "no-changes"
	ResultUnchanged = "unchanged"
	ResultFailed    = "failed"
	ResultSkipped   = "skipped"
	ResultWaiting   = "waiting"
	ResultHeld      = "held"
)

// Defaults.
const (
	DefaultTimeout       = 10 * time.Minute
	DefaultDriftInterval = time.Hour
)

// Config is what every run shares.
type Config struct {
	// Tofu is the tofu binary.
	Tofu string
	// StateDir holds workspaces, default local state, the plugin cache and
	// the tofu CLI configuration.
	StateDir string
	// Contracts is the store contracts are published to and read from, and
	// ContractPrefix the key prefix (contracts.DefaultPrefix when empty).
	Contracts      contracts.Store
	ContractPrefix string
	// Schemas keeps the schema history of published contracts; none is
	// kept when nil.
	Schemas *lineage.Store
	// History records every run.
	History *history.Store
	// Policy judges every plan with changes. PolicyErr, when set, is why
	// the policy could not be loaded: every plan with changes is then
	// held (policies fail closed).
	Policy    Policy
	PolicyErr error
	// Approvals keeps held plans and their approvals.
	Approvals *approval.Store
	// Backend is where state goes for stacks without a
	// backendConfig.customConfiguration.
	Backend StateBackend
	// ProviderMirror, when set, is the https URL of a provider network
	// mirror every init installs providers from; ProviderMirrorCA is a
	// PEM file of the certificate authorities tofu trusts for it (for a
	// mirror with its own CA).
	ProviderMirror   string
	ProviderMirrorCA string
	// Logger receives the run log lines.
	Logger *slog.Logger
	// Timeout bounds one run (DefaultTimeout when zero).
	Timeout time.Duration
	// DriftInterval is how long a stack whose inputs have not changed goes
	// without a plan. Zero plans every time.
	DriftInterval time.Duration
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Runner runs stacks.
type Runner struct {
	cfg Config
	// cliConfigMu serialises writes of the shared tofu CLI configuration.
	cliConfigMu sync.Mutex
}

// New returns a Runner.
func New(cfg Config) *Runner {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.ContractPrefix == "" {
		cfg.ContractPrefix = contracts.DefaultPrefix
	}
	return &Runner{cfg: cfg}
}

// Request is one stack to run.
type Request struct {
	Operation Operation
	// Client, Env and Class identify the environment.
	Client, Env, Class string
	Stack              *environment.Stack
	Artifact           source.Artifact
	// Producers maps each contract to the stack in the environment that
	// produces it, for messages.
	Producers map[string]string
	// EnvDir is the environment directory as the user named it, for the
	// commands messages suggest.
	EnvDir string
}

// Result is what a run did.
type Result struct {
	Stack string
	// Run is the recorded run; its Number is 0 when nothing was recorded
	// (an unchanged stack that was not re-planned).
	Run history.Run
	// Changes are the planned resource changes, as "verb address".
	Changes []string
	// Review is the policy's word on the plan, when there was a plan with
	// changes.
	Review *Review
	// Message is the run's last log line, without "run #N finished…".
	Message string
	// Why says what caused the change, in a sentence.
	Why string
}

// WaitingError means a consumed contract does not exist yet. The stack is
// not failed: the next reconcile tries again.
type WaitingError struct {
	Stack, Contract, Key, Producer string
}

func (e *WaitingError) Error() string {
	msg := fmt.Sprintf("waiting for contract %s (%s)", e.Contract, e.Key)
	if e.Producer != "" {
		msg += fmt.Sprintf(", which stack %s publishes when it is applied", e.Producer)
	}
	return msg
}

// HeldError means the plan has changes that need a person's approval.
type HeldError struct {
	Stack, PlanID, Reason string
	// PlanFile is the held copy of the plan, kept with its JSON and summary.
	PlanFile string
	// Approve is the command that approves this exact plan.
	Approve string
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("plan %s held for approval: %s; review %s, then approve it with: %s",
		e.PlanID, e.Reason, filepath.Join(filepath.Dir(e.PlanFile), "summary.md"), e.Approve)
}

// Run runs one stack and records it. The returned error is nil when the
// stack is in its desired state (or, for a plan, planned); a
// *WaitingError, a *HeldError or a failure otherwise.
func (r *Runner) Run(ctx context.Context, req Request) (Result, error) {
	s := req.Stack
	log := r.cfg.Logger.With("stack", s.Name)
	started := r.cfg.Now()
	res := Result{Stack: s.Name}

	in, err := r.gatherInputs(ctx, req)
	var waiting *WaitingError
	if errors.As(err, &waiting) {
		log.Info(waiting.Error())
		// Still waiting for the same contract: the run that said so first
		// stands, so that a loop does not add a run every pass.
		if last, ok, lerr := r.cfg.History.Last(ctx, req.Client, req.Env, s.Name); lerr == nil && ok &&
			last.Result == ResultWaiting && last.Error == waiting.Error() {
			res.Run, res.Message = last, waiting.Error()
			return res, err
		}
		run, rerr := r.recordOnly(ctx, req, ResultWaiting, waiting.Error(), started)
		res.Run, res.Message = run, waiting.Error()
		return res, errors.Join(err, rerr)
	}
	if err != nil {
		log.Error(err.Error())
		run, rerr := r.recordOnly(ctx, req, ResultFailed, err.Error(), started)
		res.Run, res.Message = run, err.Error()
		return res, errors.Join(err, rerr)
	}

	prev, hasPrev, err := r.lastGood(ctx, req)
	if err != nil {
		return res, err
	}
	if up, why := r.upToDate(ctx, req, in, prev, hasPrev); up {
		log.Info("up to date: " + why)
		res.Message = "up to date: " + why
		res.Run = history.Run{
			Client: req.Client, Env: req.Env, Stack: s.Name,
			Operation: prev.Operation, Result: ResultUnchanged,
			ToVersion: prev.ToVersion, Digest: prev.Digest, Contract: prev.Contract,
		}
		return res, nil
	}

	run, err := r.cfg.History.Begin(ctx, history.Run{
		Client: req.Client, Env: req.Env, Stack: s.Name,
		Operation:   string(req.Operation),
		FromVersion: prev.ToVersion,
		ToVersion:   req.Artifact.Version,
		Digest:      req.Artifact.Digest,
		Fingerprint: in.fingerprint,
		Inputs:      in.varHashes,
		Upstreams:   in.upstreamHashes,
		StartedAt:   started.UTC(),
	})
	if err != nil {
		return res, fmt.Errorf("run stack %s: %w", s.Name, err)
	}
	log.Info(fmt.Sprintf("run #%d started", run.Number),
		"operation", string(req.Operation), "mode", mode(s), "version", versionOrDigest(req.Artifact))

	ctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	out, err := r.steps(ctx, log, req, in, prev, hasPrev, &run)
	return r.finish(ctx, log, run, out, err, started)
}

// finish ends a run that got as far as tofu: it says why a run that
// failed failed, logs the run's last line and records it. The record is
// written even when the run was interrupted: a cancelled context must not
// lose history.
func (r *Runner) finish(ctx context.Context, log *slog.Logger, run history.Run, out outcome, err error, started time.Time) (Result, error) {
	err = explainLock(err)
	switch {
	case err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		err = fmt.Errorf("run timed out after %s: %w", r.cfg.Timeout, err)
	case err != nil && errors.Is(ctx.Err(), context.Canceled):
		err = fmt.Errorf("run interrupted: strata was stopped, and tofu with it, gracefully: %w", err)
	}
	res := Result{Stack: run.Stack, Changes: out.changes, Review: out.review, Why: out.why}
	run.Duration = r.cfg.Now().Sub(started)
	var held *HeldError
	switch {
	case errors.As(err, &held):
		run.Result = ResultHeld
		run.Error = held.Error()
		res.Message = held.Error()
		log.Warn(fmt.Sprintf("run #%d finished in %s: %s", run.Number, round(run.Duration), held.Error()))
	case err != nil:
		run.Result = ResultFailed
		run.Error = err.Error()
		res.Message = err.Error()
		log.Error(fmt.Sprintf("run #%d failed after %s: %s", run.Number, round(run.Duration), err.Error()))
	default:
		res.Message = out.message
		log.Info(fmt.Sprintf("run #%d finished in %s: %s", run.Number, round(run.Duration), out.message))
	}
	if rerr := r.cfg.History.Record(context.WithoutCancel(ctx), run); rerr != nil {
		err = errors.Join(err, fmt.Errorf("record run of stack %s: %w", run.Stack, rerr))
	}
	res.Run = run
	return res, err
}

// outcome is what the steps of a run produced.
type outcome struct {
	changes []string
	message string
	why     string
	review  *Review
}

// steps runs the stack's steps in order. It fills in run's cause, summary,
// result and contract as they become known.
func (r *Runner) steps(ctx context.Context, log *slog.Logger, req Request, in inputs, prev history.Run, hasPrev bool, run *history.Run) (outcome, error) {
	var out outcome
	ws, err := r.prepare(ctx, req, in)
	if err != nil {
		return out, err
	}
	if err := r.init(ctx, log, ws); err != nil {
		return out, err
	}
	plan, err := r.plan(ctx, log, ws)
	if err != nil {
		return out, err
	}
	out.changes = plan.lines
	run.Summary = plan.summary

	cause := classify(prev, hasPrev, req, in, plan.changed)
	run.Cause = cause.name
	if cause.line != "" && plan.changed {
		out.why = cause.line
		log.Info(cause.line)
	}

	if !plan.changed {
		run.Result = ResultNoChanges
		out.message = "no changes, the infrastructure is up to date"
		if req.Operation == OpPlan {
			return out, nil
		}
		if doc, ok := r.contractCurrent(ctx, req, in, prev, hasPrev); ok {
			run.Contract = prev.Contract
			log.Debug("contract " + prev.Contract + " unchanged: same inputs as run #" + fmt.Sprint(prev.Number) + " and no changes")
			return out, r.recordSchema(log, req.Stack.Produces, doc)
		}
		return out, r.publish(ctx, log, req, ws, run)
	}
	applied, err := r.decideAndApply(ctx, log, req, ws, plan, cause, prev.ToVersion, run, &out)
	if err != nil || !applied {
		return out, err
	}
	out.message = "the infrastructure is up to date"
	return out, r.publish(ctx, log, req, ws, run)
}

// decideAndApply is the policy step and what follows it: the plan is
// reviewed; a plan operation stops there; an apply applies what may be
// applied (the fresh plan, or the saved plan a person approved) or holds
// the plan. It reports whether anything was applied.
func (r *Runner) decideAndApply(ctx context.Context, log *slog.Logger, req Request, ws *workspace, plan planned, c cause, fromVersion string, run *history.Run, out *outcome) (bool, error) {
	rv := r.review(ctx, log, req, plan, c, fromVersion)
	run.PlanID = rv.PlanID
	out.review = &rv
	if req.Operation == OpPlan {
		run.Result = ResultPlanned
		out.message = fmt.Sprintf("plan: %s", plan.summaryLine())
		if rv.Denied() {
			out.message += fmt.Sprintf("; plan %s would be held for approval", rv.PlanID)
		}
		return false, nil
	}
	planFile, release, err := r.gate(ctx, log, req, ws, plan, c, rv)
	if err != nil {
		return false, err
	}
	if err := r.apply(ctx, log, ws, planFile, plan); err != nil {
		if release != nil {
			// An approved plan that cannot be applied (tofu finds it
			// stale, say) must not be tried forever: it is released, and
			// the next run plans afresh and holds that plan for approval.
			if rerr := release(); rerr != nil {
				log.Warn(rerr.Error())
			}
			return false, fmt.Errorf("the approved plan %s could not be applied, so it was released and the next run holds a fresh plan: %w", rv.PlanID, err)
		}
		return false, err
	}
	if release != nil {
		if err := release(); err != nil {
			log.Warn(err.Error())
		}
	}
	run.Result = ResultApplied
	return true, nil
}

// recordOnly records a run that did not get as far as tofu.
func (r *Runner) recordOnly(ctx context.Context, req Request, result, msg string, started time.Time) (history.Run, error) {
	run, err := r.cfg.History.Begin(ctx, history.Run{
		Client: req.Client, Env: req.Env, Stack: req.Stack.Name,
		Operation: string(req.Operation),
		ToVersion: req.Artifact.Version,
		Digest:    req.Artifact.Digest,
		StartedAt: started.UTC(),
	})
	if err != nil {
		return run, fmt.Errorf("record stack %s: %w", req.Stack.Name, err)
	}
	run.Result = result
	run.Error = msg
	run.Duration = r.cfg.Now().Sub(started)
	if err := r.cfg.History.Record(context.WithoutCancel(ctx), run); err != nil {
		return run, fmt.Errorf("record stack %s: %w", req.Stack.Name, err)
	}
	return run, nil
}

// lastGood returns the last run that left the stack in a known good state:
// an apply that succeeded (with or without changes).
func (r *Runner) lastGood(ctx context.Context, req Request) (history.Run, bool, error) {
	run, ok, err := r.cfg.History.LastMatching(ctx, req.Client, req.Env, req.Stack.Name, func(h history.Run) bool {
		return h.Operation == string(OpApply) && (h.Result == ResultApplied || h.Result == ResultNoChanges)
	})
	if err != nil {
		return run, false, fmt.Errorf("read history of stack %s: %w", req.Stack.Name, err)
	}
	return run, ok, nil
}

// upToDate reports whether an apply can skip init and plan: no input
// changed since the last good apply, no drift check is due, and the stack's
// contract is still there.
func (r *Runner) upToDate(ctx context.Context, req Request, in inputs, prev history.Run, hasPrev bool) (bool, string) {
	if req.Operation != OpApply || !hasPrev || r.cfg.DriftInterval <= 0 {
		return false, ""
	}
	if prev.Fingerprint != in.fingerprint {
		return false, ""
	}
	age := r.cfg.Now().Sub(prev.StartedAt)
	if age >= r.cfg.DriftInterval {
		return false, ""
	}
	if req.Stack.Produces != "" {
		if _, err := r.cfg.Contracts.Get(ctx, r.contractKey(req.Stack.Produces)); err != nil {
			return false, ""
		}
	}
	next := r.cfg.DriftInterval - age
	return true, fmt.Sprintf("no input changed since run #%d; next drift check in %s", prev.Number, round(next))
}

func (r *Runner) contractKey(name string) string {
	return contracts.Key(r.cfg.ContractPrefix, name)
}

func (r *Runner) workspaceDir(req Request) string {
	return filepath.Join(r.cfg.StateDir, "work", req.Client, req.Env, req.Stack.Name)
}

func mode(s *environment.Stack) string {
	if s.ApprovePlan == "auto" {
		return "auto"
	}
	return "manual"
}

func versionOrDigest(a source.Artifact) string {
	if a.Version != "" {
		return a.Version
	}
	if len(a.Digest) > 15 {
		return a.Digest[:15]
	}
	return a.Digest
}

// round keeps a duration readable: milliseconds under a second, tenths of
// a second under a minute, whole seconds above.
func round(d time.Duration) time.Duration {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond)
	case d < time.Minute:
		return d.Round(100 * time.Millisecond)
	default:
		return d.Round(time.Second)
	}
}

// explainLock says plainly when tofu could not take the state lock: another
// process holds it. tofu's own message, kept in full, carries the lock's
// ID, path, holder and operation.
func explainLock(err error) error {
	var te *tofu.Error
	if !errors.As(err, &te) {
		return err
	}
	for _, d := range te.Diagnostics {
		if d.Summary == tofu.SummaryStateLocked {
			return fmt.Errorf("the state is locked by another process, so nothing was changed; the next reconcile tries again (strata never forces a lock): %w", err)
		}
	}
	return err
}
