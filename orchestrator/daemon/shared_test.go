package daemon_test

import (
	"strings"
	"testing"

	"github.com/strata-iac/strata/orchestrator/daemon"
	"github.com/strata-iac/strata/orchestrator/reconcile"
)

// A pass reconciles its environments side by side, under one runner limit
// for the whole loop: each starts before the other finishes, both say they
// share the limit, and both converge.
func TestPassRunsEnvironmentsSideBySide(t *testing.T) {
	h := newHarness(t, "layered", token)
	h.withStage(func(p reconcile.Pipeline) daemon.Pipeline { return p })
	h.start()
	st := h.waitPass(1)
	for _, e := range st.Environments {
		if e.Error != nil || e.Report == nil || !e.Report.Converged() {
			t.Errorf("status of %s = %+v, want a converged report\nlogs:\n%s", e.Dir, e, h.logs.String())
		}
	}
	logs := h.logs.String()
	at := func(s string) int {
		i := strings.Index(logs, s)
		if i < 0 {
			t.Fatalf("logs lack %q:\n%s", s, logs)
		}
		return i
	}
	for _, env := range []string{"dev", "stage"} {
		line := logs[at("apply acme/"+env+": 6 stacks, at most "):]
		if line, _, _ = strings.Cut(line, "\n"); !strings.HasSuffix(line, ", 2 shared by every environment") {
			t.Errorf("log line %q does not say acme/%s shares the loop's 2 runners", line, env)
		}
	}
	devStarted, stageStarted := at("reconcile #1 of acme/dev started"), at("reconcile #1 of acme/stage started")
	devDone, stageDone := at("apply acme/dev finished"), at("apply acme/stage finished")
	if stageStarted > devDone || devStarted > stageDone {
		t.Errorf("a pass ran acme/dev and acme/stage one after the other, want them side by side:\n%s", logs)
	}
}
