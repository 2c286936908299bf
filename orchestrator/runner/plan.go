package runner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/strata-iac/strata/internal/atomicfile"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/tofu"
)

// initMu serialises tofu init across every run of this process.
var initMu sync.Mutex

// init runs `tofu init` unless the workspace was already initialised for
// the same code and backend.
func (r *Runner) init(ctx context.Context, st *runState) error {
	log, ws := st.log, st.ws
	marker := filepath.Join(ws.dir, ".terraform", initMarkerName)
	if b, err := os.ReadFile(marker); err == nil && string(b) == ws.initKey {
		log.Debug("init: workspace already initialised")
		return nil
	}
	log.Debug("init")
	// tofu's plugin cache is not safe for concurrent inits, so inits take
	// turns; plans and applies still run in parallel. Two strata processes
	// never share a state directory at once: the history database is
	// locked for the length of a reconcile.
	initMu.Lock()
	err := ws.tofu.Init(ctx, diagnostics(log))
	initMu.Unlock()
	if err != nil {
		return err
	}
	return atomicfile.Write(marker, []byte(ws.initKey), 0o600)
}

// planned is a saved plan, read back. plan is nil for a plan without
// changes, which is never shown.
type planned struct {
	plan    *tofu.Plan
	changed bool
	summary history.Summary
	lines   []string
}

func (p planned) summaryLine() string {
	return fmt.Sprintf("%d to add, %d to change, %d to destroy", p.summary.Add, p.summary.Change, p.summary.Destroy)
}

// plan runs `tofu plan -out`. A plan with changes is read back with
// `show -json`, its JSON kept beside the plan file, and each change logged.
// A plan without changes (exit code 0, no change in tofu's JSON stream) is
// not shown: that is one tofu process for a stack that has not drifted.
func (r *Runner) plan(ctx context.Context, st *runState) error {
	p, err := r.planWorkspace(ctx, st.log, st.ws)
	if err != nil {
		return err
	}
	st.plan = p
	st.run.Summary = p.summary
	if p.plan != nil {
		st.run.Outputs = p.plan.Outputs
	}
	return nil
}

// noChanges ends a plan without changes: a plan operation is done, and an
// apply goes on to publish its contract.
func (r *Runner) noChanges(_ context.Context, st *runState) error {
	if st.plan.changed {
		return nil
	}
	st.run.Result = history.ResultNoChanges
	st.message = "no changes, the infrastructure is up to date"
	if s := st.req.Stack; s.Run.PlanOnly {
		st.message = fmt.Sprintf("plan only (spec.planOnly of Terraform/%s): no changes", s.Name)
	}
	st.done = st.req.Operation == history.OperationPlan || st.req.Stack.Run.PlanOnly
	return nil
}

func (r *Runner) planWorkspace(ctx context.Context, log *slog.Logger, ws *workspace) (planned, error) {
	changes, err := ws.tofu.Plan(ctx, tofu.PlanOptions{
		Out: ws.planFile, VarFiles: append([]string{ws.varFile}, ws.varFiles...), Destroy: ws.destroy,
		Targets: ws.run.Targets, Parallelism: ws.run.Parallelism, NoLock: ws.run.PlanNoLock,
		LockTimeout: lockTimeout(ws.run.LockTimeout),
	}, diagnostics(log))
	if err != nil {
		return planned{}, err
	}
	planJSON := filepath.Join(ws.dir, planJSONFileName)
	if !changes {
		// The JSON of an older plan must not pass for this one.
		if err := os.Remove(planJSON); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return planned{}, fmt.Errorf("remove old plan json: %w", err)
		}
		out := planned{}
		log.Info("plan: " + out.summaryLine())
		return out, nil
	}
	p, err := ws.tofu.Show(ctx, ws.planFile)
	if err != nil {
		return planned{}, err
	}
	if err := atomicfile.Write(planJSON, p.JSON, 0o600); err != nil {
		return planned{}, fmt.Errorf("save plan json: %w", err)
	}
	sum := p.Summary()
	out := planned{
		plan:    p,
		changed: p.HasChanges(),
		summary: history.Summary{Add: sum.Add, Change: sum.Change, Destroy: sum.Remove},
	}
	for _, c := range p.Changes {
		line := c.Verb() + " " + c.Address
		out.lines = append(out.lines, line)
		log.Info("plan: " + line)
	}
	if len(p.Changes) == 0 && len(p.OutputChanges) > 0 {
		for _, o := range p.OutputChanges {
			line := "update output." + o
			out.lines = append(out.lines, line)
			log.Info("plan: " + line)
		}
	}
	log.Info("plan: " + out.summaryLine())
	return out, nil
}

// diagnostics logs tofu's warnings as they arrive; errors come back as the
// command's error.
func diagnostics(log *slog.Logger) func(tofu.Event) {
	return func(e tofu.Event) {
		if e.Diagnostic != nil && e.Diagnostic.Severity == "warning" {
			log.Warn("tofu: " + e.Diagnostic.String())
		}
	}
}

// lockTimeout is spec.tfstate.lockTimeout as -lock-timeout takes it; ""
// (tofu.PlanOptions' 0s) when unset.
func lockTimeout(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	return d.String()
}
