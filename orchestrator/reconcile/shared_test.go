package reconcile_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/internal/testrepo"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/scheduler"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// trackingTofu writes a tofu that logs "start DIR" and "end DIR" around
// each real tofu process, DIR being the stack's workspace.
func trackingTofu(t *testing.T, real string) (bin, log string) {
	t.Helper()
	dir := t.TempDir()
	bin, log = filepath.Join(dir, "tofu"), filepath.Join(dir, "processes.log")
	script := fmt.Sprintf("#!/bin/sh\necho \"start $PWD\" >> %[1]q\n%[2]q \"$@\"\nrc=$?\necho \"end $PWD\" >> %[1]q\nexit $rc\n", log, real)
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, log
}

// Environments reconciled side by side share one runner limit: together
// they never run more tofu processes than the pool holds, and each gets
// runners in its turn, so neither waits for the other to finish.
func TestReconcilesShareOneRunnerLimit(t *testing.T) {
	t.Parallel()
	root := testrepo.Fixture(t, "layered")
	testkit.CopyInto(t, filepath.Join(root, "environments", "acme", "stage"), filepath.Join(root, "environments", "acme", "dev"))
	testkit.EditFile(t, root, "environments/acme/stage/init.yaml", "environment: dev", "environment: stage")
	bin, log := trackingTofu(t, tofutest.Binary(t))
	state := t.TempDir()
	const size = 2
	pool := scheduler.NewPool(size)

	var wg sync.WaitGroup
	var logs testkit.Buffer
	for _, env := range []string{"dev", "stage"} {
		wg.Go(func() {
			dir := filepath.Join(root, "environments", "acme", env)
			rep, err := reconcile.Reconcile(context.Background(), dir, history.OperationApply, reconcile.Options{
				Tofu: bin, StateDir: state, Runners: pool, DriftInterval: time.Hour, Logger: runlog.New(&logs, nil),
			})
			if err != nil || !rep.Converged() {
				t.Errorf("Reconcile(%s) = %v, want every stack applied", env, err)
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		t.Fatalf("logs:\n%s", logs.String())
	}

	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	running, peak := 0, 0
	first, last := map[string]int{}, map[string]int{}
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		event, dir, _ := strings.Cut(line, " ")
		env := filepath.Base(filepath.Dir(dir))
		switch event {
		case "start":
			running++
			peak = max(peak, running)
			if _, ok := first[env]; !ok {
				first[env] = i
			}
			last[env] = i
		case "end":
			running--
		}
	}
	if peak > size {
		t.Errorf("Reconcile of dev and stage side by side ran %d tofu processes at once, want at most %d", peak, size)
	}
	if first["stage"] > last["dev"] || first["dev"] > last["stage"] {
		t.Errorf("Reconcile side by side: dev ran tofu in lines %d..%d, stage in %d..%d, want them interleaved", first["dev"], last["dev"], first["stage"], last["stage"])
	}
}
