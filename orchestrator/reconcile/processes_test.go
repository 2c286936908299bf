package reconcile_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/history"
)

// countingTofu writes a tofu that logs each command's name to a file, one
// line per process, then runs the real tofu with the same arguments.
func countingTofu(t *testing.T, real string) (bin, log string) {
	t.Helper()
	dir := t.TempDir()
	bin, log = filepath.Join(dir, "tofu"), filepath.Join(dir, "commands.log")
	script := fmt.Sprintf("#!/bin/sh\necho \"$1\" >> %q\nexec %q \"$@\"\n", log, real)
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, log
}

// commands returns the commands logged since the last call, and empties
// the log.
func commands(t *testing.T, log string) []string {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := os.WriteFile(log, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

// A drift check of stacks that have not drifted starts one tofu process
// per stack once the workspaces are warm: the plan. tofu's version is not
// asked per stack, a plan without changes is not shown, and an unchanged
// contract is not read back from the outputs.
func TestDriftCheckStartsOneTofuPerStack(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var log string
	e.tofu, log = countingTofu(t, e.tofu)
	rep, logs := e.reconcile(history.OperationApply, time.Hour)
	if !rep.Converged() {
		t.Fatalf("first apply failed:\n%s", logs)
	}
	commands(t, log)
	n := len(rep.Stacks)

	for _, tt := range []struct {
		name string
		op   history.Operation
	}{
		{"apply", history.OperationApply},
		{"plan", history.OperationPlan},
		{"apply again", history.OperationApply},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep, logs := e.reconcile(tt.op, 0)
			for _, s := range rep.Stacks {
				if s.Result != history.ResultNoChanges {
					t.Errorf("Reconcile(%s) stack %s = %s, want %s\n%s", tt.op, s.Stack, s.Result, history.ResultNoChanges, logs)
				}
			}
			want := slices.Repeat([]string{"plan"}, n)
			if diff := cmp.Diff(want, commands(t, log)); diff != "" {
				t.Errorf("Reconcile(%s) of %d unchanged stacks started tofu processes (-want +got):\n%s", tt.op, n, diff)
			}
		})
	}
}
