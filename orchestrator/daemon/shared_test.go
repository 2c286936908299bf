package daemon_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/daemon"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// A pass reconciles its environments side by side, under one runner limit
// for the whole loop: each starts before the other finishes, both say they
// share the limit, and both converge.
func TestPassRunsEnvironmentsSideBySide(t *testing.T) {
	h := newHarness(t, "layered", token)
	stage := filepath.Join(h.root, "environments", "acme", "stage")
	testkit.CopyInto(t, stage, h.dir)
	initFile := filepath.Join(stage, "init.yaml")
	b, err := os.ReadFile(initFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(initFile, []byte(strings.Replace(string(b), "environment: dev", "environment: stage", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	log := runlog.New(h.logs, nil)
	h.d, err = daemon.New(daemon.Config{
		Environments: []string{h.dir, stage},
		Interval:     time.Hour,
		Token:        token,
		Logger:       log,
		Pipeline: reconcile.Pipeline{Options: reconcile.Options{
			Tofu: tofutest.Binary(t), StateDir: h.state, MaxRunners: 2, DriftInterval: time.Hour, Logger: log,
		}},
	})
	if err != nil {
		t.Fatalf("New() = %v", err)
	}
	h.handler = h.d.Handler()
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
