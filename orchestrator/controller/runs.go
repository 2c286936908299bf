package controller

import (
	"context"
	"strings"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/source/artifact"
)

// runs hands the orchestrator's runs to the executor. A stack that
// skip-unchanged finds up to date is answered here, as a local apply would
// answer it, and the executor never sees it: no runner Job starts. A
// stack whose run the executor has to adopt (Adopter) goes to it all the
// same: that run's outcome is the stack's.
type runs struct {
	c     *Controller
	p     *pass
	local *runner.Runner
	exec  Executor
	// keeper keeps the code each stack last ran, when the records can.
	keeper Keeper
	// history is the runs' history: the whole of a run the retry wait
	// names (its head keeps only its outcome).
	history runner.History
}

// refusedLast reports whether run n of the stack, which the stack waits
// to retry, failed because its runner pod was refused (its Note).
func (r *runs) refusedLast(ctx context.Context, req runner.Request, n int) bool {
	if r.history == nil {
		return false
	}
	last, ok, err := r.history.LastMatching(ctx, req.Client, req.Env, req.Stack.Name, func(h history.Run) bool { return h.Number == n })
	return err == nil && ok && last.Note == NoteRunnerPodRefused
}

// Keeper keeps, in the records, the code (the source-controller
// artifact) each stack last ran, so that a deleted object's destroy can
// run once its source is gone too (records.Records is one).
type Keeper interface {
	KeepArtifact(ctx context.Context, client, env, stack, digest string, content func(context.Context) ([]byte, error)) error
	DropArtifacts(ctx context.Context, client, env, stack string) error
}

// runs returns what the orchestrator runs each stack of the pass with.
func (c *Controller) runs(p *pass) func(runner.Config) runner.StackRunner {
	return func(cfg runner.Config) runner.StackRunner {
		local := runner.New(cfg)
		var exec Executor = InProcess{Runner: local}
		if c.cfg.Executor != nil {
			exec = c.cfg.Executor(cfg)
		}
		if a, ok := exec.(Adopter); ok {
			p.setAdopter(a)
		}
		keeper, _ := cfg.History.(Keeper)
		p.setKeeper(keeper)
		return &runs{c: c, p: p, local: local, exec: exec, keeper: keeper, history: cfg.History}
	}
}

// Run runs one stack. A run the executor has to adopt goes to it first;
// else a stack whose last run failed less than its spec.retryInterval ago,
// or that skip-unchanged finds up to date, is answered here, as the
// in-process runner would answer it: an executor whose runs happen
// elsewhere (a runner Job) starts none for it.
func (r *runs) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	cr := Request{Request: req, Namespace: r.p.ns, Name: req.Stack.Name}
	tf := r.p.tfs[req.Stack.Name]
	if tf != nil && req.Removal == nil && !deleting(tf) && exhausted(tf, revision(req)) {
		// Its retries are used up: as the Tofu Controller, nothing runs
		// until its spec or its source changes.
		r.p.exhaust(req.Stack.Name)
		return runner.Result{
			Stack: req.Stack.Name, Message: retryLimitMessage, Why: retryLimitMessage,
			Run: history.Run{Client: req.Client, Env: req.Env, Stack: req.Stack.Name, Operation: req.Operation, Result: history.ResultSkipped},
		}, nil
	}
	if tf != nil {
		cr.Spec, cr.UID = tf.Spec, tf.UID
		cr.ReportedLock = tf.Status.Lock.Pending
		// Drift is said in tofu's words, as the Tofu Controller says it.
		cr.DriftText = true
		cr.Progress = func(pr Progress) { r.c.progress(ctx, tf, pr) }
		// A runner elsewhere (a runner Job) saves its own.
		cr.SavePlan = SavePlan(r.c.cfg.Cluster, cr.Owner())
	}
	if req.Operation == history.OperationApply && req.Removal == nil {
		adopt, err := r.adoptable(ctx, cr)
		if err != nil {
			return failed(req, err)
		}
		if !adopt {
			if res, retry := r.local.WaitToRetry(ctx, req); retry != nil {
				if r.refusedLast(ctx, req, retry.Last.Number) {
					r.p.refusedRun(req.Stack.Name)
				}
				r.p.waitedToRetry(req.Stack.Name)
				return res, retry
			}
			if res, ok := r.local.UpToDate(ctx, req); ok {
				return res, nil
			}
		}
	}
	o, err := r.exec.Execute(ctx, cr)
	if err != nil {
		return failed(req, err)
	}
	if o.RunnerPodRefused {
		r.p.refusedRun(req.Stack.Name)
	}
	if a, ok := r.exec.(Adopter); ok && o.Runner != "" {
		r.p.ran(adopted{adopter: a, req: cr, out: o})
	}
	res, err := o.Unpack()
	r.keep(ctx, req, res)
	return res, err
}

// revision is the revision of the request's source artifact ("" when it
// has none).
func revision(req runner.Request) string {
	if a := req.Stack.Source.Artifact; a != nil {
		return a.Revision
	}
	return ""
}

// keep keeps the code of a run that ran tofu and converged (applied, or
// planned no changes) in the records, by its digest, unless it is kept
// already: the code a destroy of the stack's deleted object runs once the
// source has no artifact. A failure to keep it is a warning: the run
// stands.
func (r *runs) keep(ctx context.Context, req runner.Request, res runner.Result) {
	a := req.Artifact
	if r.keeper == nil || req.Removal != nil || a.Digest == "" || !strings.HasPrefix(a.URL, "http") ||
		(res.Run.Result != history.ResultApplied && res.Run.Result != history.ResultNoChanges) {
		return
	}
	download := func(ctx context.Context) ([]byte, error) { return (&artifact.Fetcher{}).Download(ctx, a.URL, a.Digest) }
	if err := r.keeper.KeepArtifact(ctx, req.Client, req.Env, req.Stack.Name, a.Digest, download); err != nil {
		r.c.log.Warn(err.Error()+": the destroy of its object, once deleted, needs its source's artifact", "stack", req.Stack.Name)
	}
}

// adoptable reports whether the executor has a run of the stack to adopt.
func (r *runs) adoptable(ctx context.Context, req Request) (bool, error) {
	a, ok := r.exec.(Adopter)
	if !ok {
		return false, nil
	}
	return a.Adoptable(ctx, req)
}

// failed is the result of a run the executor could not run.
func failed(req runner.Request, err error) (runner.Result, error) {
	return runner.Result{
		Stack:   req.Stack.Name,
		Message: err.Error(),
		Run: history.Run{
			Client: req.Client, Env: req.Env, Stack: req.Stack.Name, Operation: req.Operation,
			Result: history.ResultFailed, Error: err.Error(),
		},
	}, err
}
