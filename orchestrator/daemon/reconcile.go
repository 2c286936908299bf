package daemon

import (
	"context"
	"errors"
	"fmt"

	"github.com/strata-iac/strata/internal/recovered"
	"github.com/strata-iac/strata/orchestrator/diag"
	"github.com/strata-iac/strata/orchestrator/flux"
	"github.com/strata-iac/strata/orchestrator/report"
)

// reconcile runs one environment once and keeps what came of it: its
// report, or the error that kept it from running, which the next pass
// retries.
func (d *Daemon) reconcile(ctx context.Context, e *envState) {
	d.identify(ctx, e)
	d.mu.Lock()
	e.reconciles++
	n, label := e.reconciles, e.label()
	e.running = true
	e.startedAt = d.cfg.Now()
	d.mu.Unlock()
	d.changed()
	defer d.changed()

	d.log.Info(fmt.Sprintf("reconcile #%d of %s started", n, label))
	rep, err := d.runPipeline(ctx, e.dir)

	d.mu.Lock()
	e.running = false
	e.done = true
	e.finishedAt = d.cfg.Now()
	took := e.finishedAt.Sub(e.startedAt)
	e.err = err
	if rep != nil {
		e.report = rep
		e.client, e.name = rep.Client, rep.Environment
	}
	client, name := e.client, e.name
	d.mu.Unlock()

	d.metrics.observe(client, name, rep, err, took)
	switch {
	case err != nil && ctx.Err() != nil:
		d.log.Warn(fmt.Sprintf("reconcile #%d of %s stopped: %v", n, label, err))
	case err != nil:
		d.logError(n, label, err)
	case ctx.Err() != nil:
		d.log.Warn(fmt.Sprintf("reconcile #%d of %s was interrupted by %s", n, label, stopReason(ctx)))
	}
}

// runPipeline is the pipeline's reconcile of the environment at dir. A
// panic of it is that environment's error (recovered.Error): the other
// environments go on, and the next pass tries it again.
func (d *Daemon) runPipeline(ctx context.Context, dir string) (_ *report.Report, err error) {
	defer recovered.Catch(&err, "")
	return d.cfg.Pipeline.Reconcile(ctx, dir, d.runLog, d.runners)
}

// logError logs why a reconcile could not run, one line per problem of an
// invalid environment, and the stack of a panic.
func (d *Daemon) logError(n int, label string, err error) {
	var problems diag.Problems
	if !errors.As(err, &problems) {
		d.log.Error(fmt.Sprintf("reconcile #%d of %s failed: %v; the next reconcile tries again", n, label, err))
		recovered.Log(d.log, err)
		return
	}
	d.log.Error(fmt.Sprintf("reconcile #%d of %s failed: %d problem(s) found; the next reconcile tries again", n, label, len(problems)))
	for _, p := range problems {
		d.log.Error(fmt.Sprintf("reconcile #%d of %s: %s", n, label, p))
	}
}

// identify reads the client and environment names of an environment not
// yet named, for the log lines and metric labels of a reconcile that
// cannot report them itself.
func (d *Daemon) identify(ctx context.Context, e *envState) {
	d.mu.Lock()
	known := e.client != "" || e.name != ""
	d.mu.Unlock()
	if known {
		return
	}
	// An environment with problems still names itself when its init
	// ConfigMap loaded.
	env, _ := flux.Load(ctx, e.dir)
	if env == nil || (env.Client == "" && env.Name == "") {
		return
	}
	d.mu.Lock()
	e.client, e.name = env.Client, env.Name
	d.mu.Unlock()
}

// stopReason says why the loop's context ended: the cause it was
// cancelled with (a lost lease), else a shutdown.
func stopReason(ctx context.Context) string {
	if c := context.Cause(ctx); c != nil && !errors.Is(c, context.Canceled) {
		return c.Error()
	}
	return "shutdown"
}
