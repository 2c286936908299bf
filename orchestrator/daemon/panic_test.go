package daemon_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/orchestrator/daemon"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/scheduler"
)

// panickingPipeline is the reconcile pipeline, but for one environment
// whose reconcile panics, as a bug in it would.
type panickingPipeline struct {
	reconcile.Pipeline
	dir string
}

func (p panickingPipeline) Reconcile(ctx context.Context, dir string, log *slog.Logger, runners *scheduler.Pool) (*report.Report, error) {
	if dir == p.dir {
		var stacks []string
		_ = stacks[len(dir)] // index out of range
	}
	return p.Pipeline.Reconcile(ctx, dir, log, runners)
}

// TestRunSurvivesPanic checks that a reconcile that panics is that
// environment's error, logged with its trace: the other environment
// converges, and the loop goes on to its next pass.
func TestRunSurvivesPanic(t *testing.T) {
	h := newHarness(t, "layered", token)
	stage := filepath.Join(h.root, "environments", "acme", "stage")
	h.withStage(func(p reconcile.Pipeline) daemon.Pipeline { return panickingPipeline{Pipeline: p, dir: stage} })
	h.d.Trigger()
	h.start()
	st := h.waitPass(2)
	for _, e := range st.Environments {
		switch e.Dir {
		case stage:
			if e.Reconciles != 2 || e.Error == nil || !strings.HasPrefix(e.Error.Message, "panicked: runtime error: index out of range") {
				t.Errorf("status of the panicking environment = %+v, want two reconciles and the panic as its error", e)
			}
		default:
			if e.Error != nil || e.Report == nil || !e.Report.Converged() {
				t.Errorf("status of %s = %+v, want a converged report", e.Dir, e)
			}
		}
	}
	logs := h.logs.String()
	for _, line := range []string{
		"ERROR reconcile #1 of acme/stage failed: panicked: runtime error: index out of range",
		"ERROR stack trace of the panic: panicked: runtime error: index out of range",
		"panickingPipeline.Reconcile",
		"ERROR reconcile #2 of acme/stage failed: panicked: ",
	} {
		if !strings.Contains(logs, line) {
			t.Errorf("logs lack %q:\n%s", line, logs)
		}
	}
}
