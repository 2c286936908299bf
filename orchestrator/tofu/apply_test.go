package tofu_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/tofu"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// helperEnv names the workspace a re-executed test binary applies in, as
// the strata that a test then kills.
const helperEnv = "STRATA_TEST_APPLY_HELPER"

// TestHelperApply is not a test: it is the process TestApplyOutlivesStrata
// kills in the middle of an apply.
func TestHelperApply(t *testing.T) {
	dir := os.Getenv(helperEnv)
	if dir == "" {
		t.Skip("helper process only")
	}
	ws, err := tofu.New(tofutest.Binary(t), dir, tofu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.Apply(context.Background(), filepath.Join(dir, "plan.out"), tofu.ApplyOptions{Run: 7}, nil); err != nil {
		t.Fatal(err)
	}
}

// slowStack is a workspace of testdata/slow, initialised and planned: n
// resources whose provisioners sleep, each logging its creation to the
// returned log file.
func slowStack(t *testing.T, n int, sleep float64, background bool) (*tofu.Workspace, string, string) {
	t.Helper()
	ctx := context.Background()
	dir := copyStack(t, "slow")
	log := filepath.Join(dir, "creates.log")
	ws, err := tofu.New(tofutest.Binary(t), dir, tofu.Options{GracePeriod: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.Init(ctx, nil); err != nil {
		t.Fatalf("Init() = %v", err)
	}
	vars := writeVars(t, dir, map[string]any{"n": n, "sleep": sleep, "log": log, "background": background})
	planFile := filepath.Join(dir, "plan.out")
	if _, err := ws.Plan(ctx, tofu.PlanOptions{Out: planFile, VarFiles: []string{vars}}, nil); err != nil {
		t.Fatalf("Plan() = %v", err)
	}
	return ws, planFile, log
}

// lines reads the creation log.
func lines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

// stateCount counts the resource instances in the workspace's local state.
func stateCount(t *testing.T, dir string) int {
	t.Helper()
	cmd := exec.Command(tofutest.Binary(t), "state", "list")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tofu state list = %v", err)
	}
	return len(strings.Fields(string(out)))
}

// waitFor polls until cond holds, failing the test after a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestApplyOutlivesStrata kills the strata process (kill -9) in the middle
// of an apply. tofu, in its own process group and with no parent-death
// signal, goes on: every resource is created exactly once and is in the
// state, and Adopt finds the apply, waits for it and reads its outcome.
func TestApplyOutlivesStrata(t *testing.T) {
	const n = 3
	ws, _, log := slowStack(t, n, 2, false)
	dir := ws.Dir()

	helper := exec.Command(os.Args[0], "-test.run=^TestHelperApply$", "-test.count=1")
	helper.Env = append(os.Environ(), helperEnv+"="+dir)
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill strata once tofu has started creating.
	waitFor(t, "the apply to start", func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, tofu.StreamFile))
		return strings.Contains(string(b), `"apply_start"`)
	})
	if err := helper.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = helper.Wait()

	rec, ok, err := tofu.ReadRecord(dir)
	if err != nil || !ok {
		t.Fatalf("ReadRecord(%q) = %v, %v, want the record of the apply", dir, ok, err)
	}
	if rec.StrataAlive() {
		t.Errorf("ReadRecord(%q).StrataAlive() = true, want false after kill -9", dir)
	}
	if !rec.TofuAlive() {
		t.Fatalf("ReadRecord(%q).TofuAlive() = false, want tofu still applying after strata died", dir)
	}
	if rec.Run != 7 || rec.Exit != nil {
		t.Errorf("ReadRecord(%q) = run %d, exit %v, want run 7 and no exit status", dir, rec.Run, rec.Exit)
	}

	var completed []string
	o, err := tofu.Adopt(context.Background(), dir, rec, 100*time.Millisecond, func(e tofu.Event) {
		if e.Type == "apply_complete" {
			completed = append(completed, e.Resource)
		}
	})
	if err != nil {
		t.Fatalf("Adopt(%q) = %v", dir, err)
	}
	if err := o.Err(); err != nil {
		t.Errorf("Adopt(%q).Err() = %v, want nil", dir, err)
	}
	if o.Summary == nil || o.Summary.Add != n {
		t.Errorf("Adopt(%q).Summary = %+v, want %d added", dir, o.Summary, n)
	}
	if len(completed) != n {
		t.Errorf("Adopt(%q) events: %d resources complete, want %d", dir, len(completed), n)
	}
	if got := lines(t, log); len(got) != n {
		t.Errorf("creations = %v, want each of %d resources created once", got, n)
	}
	if got := stateCount(t, dir); got != n {
		t.Errorf("resources in state = %d, want %d", got, n)
	}
	if left := groupGone(rec.PID); len(left) > 0 {
		t.Errorf("processes left in tofu's group %d: %v, want none", rec.PID, left)
	}
}

// groupGone waits up to 5 s for the processes of group pgid to end, and
// returns those that still run: a SIGKILL takes effect when the kernel
// next schedules the process, which on a loaded machine is not at once.
func groupGone(pgid int) []int {
	deadline := time.Now().Add(5 * time.Second)
	for {
		left := tofu.GroupLeft(pgid)
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestApplyEndsProvisionerProcesses: a provisioner that leaves a process
// behind does not leave it running once its tofu has exited.
func TestApplyEndsProvisionerProcesses(t *testing.T) {
	ws, planFile, _ := slowStack(t, 1, 0, true)
	if err := ws.Apply(context.Background(), planFile, tofu.ApplyOptions{Run: 1}, nil); err != nil {
		t.Fatalf("Apply() = %v", err)
	}
	rec, ok, err := tofu.ReadRecord(ws.Dir())
	if err != nil || !ok {
		t.Fatalf("ReadRecord() = %v, %v", ok, err)
	}
	if rec.Exit == nil || *rec.Exit != 0 || rec.PID == 0 {
		t.Errorf("ReadRecord() = pid %d exit %v, want a pid and exit 0", rec.PID, rec.Exit)
	}
	if left := groupGone(rec.PID); len(left) > 0 {
		t.Errorf("processes left in tofu's group %d: %v, want none", rec.PID, left)
	}
	if err := tofu.ClearRecord(ws.Dir()); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := tofu.ReadRecord(ws.Dir()); ok {
		t.Errorf("ReadRecord() after ClearRecord() found a record, want none")
	}
}

// TestApplyStop: when strata is asked to stop, an apply in flight gets
// StopGrace to finish; with none, tofu is interrupted and the error says
// so.
func TestApplyStop(t *testing.T) {
	tests := []struct {
		name            string
		grace           time.Duration
		wantInterrupted bool
		wantCreated     int
	}{
		{"the grace lets the apply finish", time.Minute, false, 2},
		{"no grace interrupts tofu", 0, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, planFile, log := slowStack(t, 2, 3, false)
			ctx, cancel := context.WithCancel(context.Background())
			var said []string
			err := ws.Apply(ctx, planFile, tofu.ApplyOptions{Run: 1, StopGrace: tt.grace, Stopping: func(msg string) { said = append(said, msg) }},
				func(e tofu.Event) {
					if e.Type == "apply_start" {
						cancel()
					}
				})
			cancel()
			if got := errors.Is(err, tofu.ErrInterrupted); got != tt.wantInterrupted {
				t.Errorf("Apply() = %v, want interrupted %v", err, tt.wantInterrupted)
			}
			if got := len(lines(t, log)); got != tt.wantCreated {
				t.Errorf("creations = %d, want %d", got, tt.wantCreated)
			}
			if len(said) == 0 {
				t.Errorf("Apply() told Stopping nothing, want what happens to the apply")
			}
		})
	}
}

// TestReadOutcome reads outcomes from streams tofu wrote.
func TestReadOutcome(t *testing.T) {
	zero, one := 0, 1
	tests := []struct {
		name    string
		stream  string
		exit    *int
		want    tofu.Outcome
		wantErr string
	}{
		{"complete", `{"type":"apply_start"}` + "\n" + `{"type":"change_summary","changes":{"add":2,"operation":"apply"}}`, &zero,
			tofu.Outcome{Completed: true, Summary: &tofu.Summary{Add: 2, Operation: "apply"}, Exit: &zero}, ""},
		{"killed half-way", `{"type":"apply_start"}` + "\n" + `{"type":"apply_progr`, nil,
			tofu.Outcome{}, "tofu stopped before the apply completed"},
		{"failed", `{"type":"diagnostic","diagnostic":{"severity":"error","summary":"boom"}}`, &one,
			tofu.Outcome{Errors: []tofu.Diagnostic{{Severity: "error", Summary: "boom"}}, Exit: &one}, "boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, tofu.StreamFile), []byte(tt.stream), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := tofu.ReadOutcome(dir, tofu.Record{Exit: tt.exit}, nil)
			if err != nil {
				t.Fatalf("ReadOutcome(%q) = %v", tt.stream, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ReadOutcome(%q) (-want +got):\n%s", tt.stream, diff)
			}
			gerr := got.Err()
			if (tt.wantErr == "") != (gerr == nil) || (gerr != nil && !strings.Contains(gerr.Error(), tt.wantErr)) {
				t.Errorf("ReadOutcome(%q).Err() = %v, want %q", tt.stream, gerr, tt.wantErr)
			}
		})
	}
}

// TestAdoptBeforeThePID: a strata that died between writing the record
// and writing tofu's process ID into it left a record without one. Adopt
// still waits for the tofu that runs in the workspace, and reads its
// outcome once it is done.
func TestAdoptBeforeThePID(t *testing.T) {
	const n = 2
	ws, planFile, log := slowStack(t, n, 2, false)
	dir := ws.Dir()
	stream, err := os.Create(filepath.Join(dir, tofu.StreamFile))
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	apply := exec.Command(tofutest.Binary(t), "apply", "-json", "-input=false", planFile)
	apply.Dir, apply.Stdout = dir, stream
	if err := apply.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = apply.Wait(); close(done) }()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	rec := tofu.Record{Run: 3, PlanFile: planFile, Host: host, Strata: gone.Process.Pid, Started: time.Now()}
	o, err := tofu.Adopt(context.Background(), dir, rec, 50*time.Millisecond, nil)
	if err != nil {
		t.Fatalf("Adopt(%q) = %v", dir, err)
	}
	// tofu has exited when Adopt returns: reaped already, or a zombie the
	// goroutine above is about to reap.
	select {
	case <-done:
	default:
		if exited, err := hasExited(apply.Process.Pid); err != nil || !exited {
			t.Errorf("Adopt(%q) returned while tofu still applied (%v)", dir, err)
		}
	}
	if err := o.Err(); err != nil || o.Summary == nil || o.Summary.Add != n {
		t.Errorf("Adopt(%q) = %+v, %v, want the apply complete with %d added", dir, o, err, n)
	}
	if got := lines(t, log); len(got) != n {
		t.Errorf("creations = %v, want %d", got, n)
	}
}

// hasExited reports whether the child pid has exited: it is a zombie not
// yet waited for, or gone.
func hasExited(pid int) (bool, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	// The state follows the command name, which is in parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return false, fmt.Errorf("read /proc/%d/stat: no state in %q", pid, b)
	}
	return b[i+2] == 'Z' || b[i+2] == 'X', nil
}
