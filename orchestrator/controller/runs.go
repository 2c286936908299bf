package controller

import (
	"context"

	"github.com/strata-iac/strata/orchestrator"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runner"
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
}

// runs returns what the orchestrator runs each stack of the pass with.
func (c *Controller) runs(p *pass) func(runner.Config) orchestrator.StackRunner {
	return func(cfg runner.Config) orchestrator.StackRunner {
		local := runner.New(cfg)
		var exec Executor = InProcess{Runner: local}
		if c.cfg.Executor != nil {
			exec = c.cfg.Executor(cfg)
		}
		if a, ok := exec.(Adopter); ok {
			p.setAdopter(a)
		}
		return &runs{c: c, p: p, local: local, exec: exec}
	}
}

// Run runs one stack. A run the executor has to adopt goes to it first;
// else a stack whose last run failed less than its spec.retryInterval ago,
// or that skip-unchanged finds up to date, is answered here, as the
// in-process runner would answer it: an executor whose runs happen
// elsewhere (a runner Job) starts none for it.
func (r *runs) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	cr := Request{Request: req, Namespace: r.p.ns, Name: req.Stack.Name}
	if tf := r.p.tfs[req.Stack.Name]; tf != nil {
		cr.Spec = tf.Spec
		cr.Progress = func(pr Progress) { r.c.progress(ctx, tf, pr) }
	}
	if req.Operation == history.OperationApply && req.Removal == nil {
		adopt, err := r.adoptable(ctx, cr)
		if err != nil {
			return failed(req, err)
		}
		if !adopt {
			if res, retry := r.local.WaitToRetry(ctx, req); retry != nil {
				if retry.Last.Note == NoteRunnerPodRefused {
					r.p.refusedRun(req.Stack.Name)
				}
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
	return o.Unpack()
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
