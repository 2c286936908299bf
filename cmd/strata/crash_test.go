package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/tofu"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// The crash trials run the real strata binary on testdata/crash: one stack
// of crashResources resources whose provisioners sleep 1, 2, 3 and 4
// seconds, log their creation to $STRATA_TEST_CREATES and leave a process
// behind. Each trial stops strata at a different point of the apply.
const crashResources = 4

// trials is how many trials of each kind run: 5, or $STRATA_TRIALS
// (`make soak` runs 20).
func trials(t *testing.T) int {
	t.Helper()
	n := 5
	if v := os.Getenv("STRATA_TRIALS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			t.Fatalf("STRATA_TRIALS=%q: want a positive number", v)
		}
	}
	return n
}

// built is the strata binary buildStrata built, once per test binary, in
// a directory TestMain removes when the tests are over.
var built struct {
	sync.Once
	dir, bin string
	err      error
}

// buildStrata returns the strata binary, built the first time a test asks
// for it: the tests that run it share it, as they only run it. They drive
// real tofu, so they skip under -short, before the build.
func buildStrata(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the strata binary against real tofu; skipped with -short")
	}
	built.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "strata-test-bin-")
		if built.err != nil {
			return
		}
		bin := filepath.Join(built.dir, "strata")
		if out, err := goBuild(bin, buildTags); err != nil {
			built.err = fmt.Errorf("go build -tags %q: %w\n%s", buildTags, err, out)
			return
		}
		built.bin = bin
	})
	if built.err != nil {
		t.Fatalf("build strata: %v", built.err)
	}
	return built.bin
}

// removeBuilt removes the binary buildStrata built, if it did.
func removeBuilt() {
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
}

// buildBinary builds this command into bin with tags.
func buildBinary(t *testing.T, bin, tags string) string {
	t.Helper()
	out, err := goBuild(bin, tags)
	if err != nil {
		t.Fatalf("go build -tags %q = %v\n%s", tags, err, out)
	}
	return bin
}

// goBuild builds this command into bin with tags and without cgo, as
// make build does: the packages make build compiled are not compiled
// again, only linked.
func goBuild(bin, tags string) ([]byte, error) {
	cmd := exec.Command("go", "build", "-tags", tags, "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	return cmd.CombinedOutput()
}

// crashTrial is one trial's repository, state and side-effect file.
type crashTrial struct {
	t                   *testing.T
	bin, tofu           string
	env, state, creates string
}

func newCrashTrial(t *testing.T, bin string) *crashTrial {
	root := testkit.Copy(t, filepath.Join("testdata", "crash"))
	return &crashTrial{
		t: t, bin: bin, tofu: tofutest.Binary(t),
		env:     filepath.Join(root, "environments", "acme", "dev"),
		state:   t.TempDir(),
		creates: filepath.Join(t.TempDir(), "creates.log"),
	}
}

func (c *crashTrial) command(args ...string) (*exec.Cmd, *bytes.Buffer) {
	args = append(args, "--state-dir", c.state)
	cmd := exec.Command(c.bin, args...)
	cmd.Env = append(os.Environ(), "STRATA_TEST_CREATES="+c.creates, tofu.EnvBinary+"="+c.tofu)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	return cmd, &out
}

// startApply starts `strata apply` and returns once tofu is applying: a
// new apply record, and its stream (which the apply starts empty) holds
// an apply_start. A record an earlier apply left is not taken for it.
func (c *crashTrial) startApply(extra ...string) (*exec.Cmd, *bytes.Buffer) {
	c.t.Helper()
	dir := filepath.Join(c.state, "work", "acme", "dev", "crash")
	before, _, _ := tofu.ReadRecord(dir)
	cmd, out := c.command(append([]string{"apply", c.env}, extra...)...)
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	stream := filepath.Join(dir, tofu.StreamFile)
	deadline := time.Now().Add(3 * time.Minute)
	for {
		rec, ok, _ := tofu.ReadRecord(dir)
		if b, _ := os.ReadFile(stream); ok && rec.Run != before.Run && rec.PID != 0 && bytes.Contains(b, []byte(`"apply_start"`)) {
			return cmd, out
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			c.t.Fatalf("the apply never started:\n%s", out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// killTofu kills the process group of the apply's tofu (tofu and its
// provisioners) with SIGKILL, as the OOM killer does, leaving strata (cmd)
// alive to see it, and waits for strata to end. It returns the apply's
// record, which startApply saw name tofu's pid.
func (c *crashTrial) killTofu(cmd *exec.Cmd) tofu.Record {
	c.t.Helper()
	rec, ok, err := tofu.ReadRecord(filepath.Join(c.state, "work", "acme", "dev", "crash"))
	if err != nil || !ok || rec.PID == 0 {
		c.t.Fatalf("ReadRecord() = %+v, %v, %v, want the apply's tofu", rec, ok, err)
	}
	_ = syscall.Kill(-rec.PID, syscall.SIGKILL)
	_ = cmd.Wait()
	return rec
}

// apply runs `strata apply` to its end and returns its output and exit
// code.
func (c *crashTrial) apply() (string, int) {
	c.t.Helper()
	cmd, out := c.command("apply", c.env)
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		c.t.Fatal(err)
	}
	return out.String(), cmd.ProcessState.ExitCode()
}

// check asserts what every trial must end with: each resource created
// exactly once, all of them in the state, and no provisioner process left.
func (c *crashTrial) check() {
	c.t.Helper()
	b, err := os.ReadFile(c.creates)
	if err != nil {
		c.t.Fatal(err)
	}
	got := strings.Fields(string(b))
	slices.Sort(got)
	var want []string
	for i := range crashResources {
		want = append(want, strconv.Itoa(i))
	}
	if !slices.Equal(got, want) {
		c.t.Errorf("creations = %v, want each resource created exactly once: %v", got, want)
	}
	if n := c.stateInstances(); n != crashResources {
		c.t.Errorf("resources in state = %d, want %d", n, crashResources)
	}
	if left := c.leftovers(); len(left) > 0 {
		c.t.Errorf("provisioner processes left running: %v, want none", left)
	}
}

// stateInstances counts the instances in the stack's local state file.
func (c *crashTrial) stateInstances() int {
	c.t.Helper()
	b, err := os.ReadFile(filepath.Join(c.state, "state", "acme", "dev", "crash.tfstate"))
	if err != nil {
		c.t.Fatal(err)
	}
	var st struct {
		Resources []struct {
			Instances []json.RawMessage `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		c.t.Fatal(err)
	}
	n := 0
	for _, r := range st.Resources {
		n += len(r.Instances)
	}
	return n
}

// leftovers lists the running processes (zombies aside) that carry this
// trial's side-effect file in their environment: provisioners and what
// they started.
func (c *crashTrial) leftovers() []int {
	marker := []byte("STRATA_TEST_CREATES=" + c.creates + "\x00")
	entries, _ := os.ReadDir("/proc")
	var left []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !bytes.Contains(env, marker) {
			continue
		}
		if stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
			if i := bytes.LastIndexByte(stat, ')'); i > 0 && bytes.HasPrefix(bytes.TrimSpace(stat[i+1:]), []byte("Z")) {
				continue
			}
		}
		left = append(left, pid)
	}
	return left
}

// delay spreads the trials' stops over the apply: each resource is
// created a second after the previous one.
func delay(i int) time.Duration {
	return time.Duration(i%crashResources)*900*time.Millisecond + 200*time.Millisecond
}

// TestKillDuringApply kills strata (kill -9) in the middle of an apply.
// tofu goes on and writes its state; the next strata waits for it, adopts
// its outcome and converges without creating anything twice.
func TestKillDuringApply(t *testing.T) {
	// It execs strata, each run in a session, repository and state
	// directory of its own: it runs beside the other crash tests.
	t.Parallel()
	bin := buildStrata(t)
	for i := range trials(t) {
		t.Run(fmt.Sprintf("trial %d", i+1), func(t *testing.T) {
			c := newCrashTrial(t, bin)
			cmd, out := c.startApply()
			time.Sleep(delay(i))
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			_, inFlight, err := tofu.ReadRecord(filepath.Join(c.state, "work", "acme", "dev", "crash"))
			if err != nil {
				t.Fatal(err)
			}
			got, code := c.apply()
			if code != 0 {
				t.Fatalf("strata apply after kill -9 exited %d, want 0 (converged)\nfirst:\n%s\nsecond:\n%s", code, out, got)
			}
			if inFlight && !strings.Contains(got, "the apply went on after strata stopped and completed") {
				t.Errorf("strata apply after kill -9 = %s, want the apply in flight adopted", got)
			}
			c.check()
		})
	}
}

// TestStopDuringApply sends strata SIGTERM in the middle of an apply: no
// new run starts, the apply in flight finishes within the shutdown grace,
// and the next apply converges with no approval needed.
func TestStopDuringApply(t *testing.T) {
	// It execs strata, each run in a session, repository and state
	// directory of its own: it runs beside the other crash tests.
	t.Parallel()
	bin := buildStrata(t)
	for i := range trials(t) {
		t.Run(fmt.Sprintf("trial %d", i+1), func(t *testing.T) {
			c := newCrashTrial(t, bin)
			cmd, out := c.startApply()
			time.Sleep(delay(i))
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			if !strings.Contains(out.String(), "the apply in flight has 5m0s to finish") && !strings.Contains(out.String(), "run #1 finished") {
				t.Errorf("strata apply stopped = %s, want the apply given its shutdown grace", out)
			}
			if code := cmd.ProcessState.ExitCode(); code != 0 {
				t.Errorf("strata apply stopped exited %d, want 0: the apply finished within the grace\n%s", code, out)
			}
			got, code := c.apply()
			if code != 0 || strings.Contains(got, "held") {
				t.Fatalf("strata apply after SIGTERM exited %d, want 0 with nothing held\nfirst:\n%s\nsecond:\n%s", code, out, got)
			}
			c.check()
		})
	}
}

// TestStopPastGrace sends strata SIGTERM with a shutdown grace shorter
// than the apply: tofu is interrupted, the provisioners it stops taint
// their resources, and the run is recorded as interrupted. The next apply
// replaces what strata's own interruption tainted without holding it for
// an approval, and converges.
func TestStopPastGrace(t *testing.T) {
	// It execs strata, each run in a session, repository and state
	// directory of its own: it runs beside the other crash tests.
	t.Parallel()
	bin := buildStrata(t)
	c := newCrashTrial(t, bin)
	cmd, out := c.startApply("--shutdown-grace", "500ms")
	time.Sleep(delay(1))
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != exitFailed || !strings.Contains(out.String(), "interrupted") {
		t.Fatalf("strata apply stopped past its grace exited %d, want %d with the run interrupted\n%s", code, exitFailed, out)
	}
	hist, _, _ := strata(t, "history", c.env, "--state-dir", c.state, "-o", "json")
	if !strings.Contains(hist, `"result": "interrupted"`) {
		t.Errorf("strata history = %s, want the stopped run recorded as interrupted", hist)
	}
	got, code := c.apply()
	if code != exitConverged || strings.Contains(got, "held") || !strings.Contains(got, "replace terraform_data.crash") {
		t.Fatalf("strata apply after the interruption exited %d, want %d: the tainted resources replaced, nothing held\nfirst:\n%s\nsecond:\n%s", code, exitConverged, out, got)
	}
	c.check()
}

// running reports whether process pid runs (a zombie has exited).
func running(pid int) bool {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(stat, ')')
	return i > 0 && !bytes.HasPrefix(bytes.TrimSpace(stat[i+1:]), []byte("Z"))
}

// TestSecondSignalDuringApply sends strata SIGTERM in the middle of an
// apply, and a second one while the apply has its shutdown grace: the
// first lets the apply go on, the second ends strata at once, and tofu
// goes on without it, as when strata is killed. The next apply adopts
// that tofu's outcome and converges, each resource created once.
func TestSecondSignalDuringApply(t *testing.T) {
	bin := buildStrata(t)
	c := newCrashTrial(t, bin)
	cmd, out := c.startApply()
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
		t.Fatalf("strata apply exited on the first SIGTERM, want the apply in flight given its grace:\n%s", out)
	case <-time.After(time.Second):
	}
	if !running(cmd.Process.Pid) {
		t.Fatalf("strata apply is not running a second after the first SIGTERM, want it in the shutdown grace")
	}
	signalled := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(2 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
		t.Fatalf("strata apply did not exit within 2s of a second SIGTERM:\n%s", out)
	}
	t.Logf("strata exited %v after the second SIGTERM", time.Since(signalled))
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("strata apply after a second SIGTERM = %v, want it ended by the signal", cmd.ProcessState)
	}
	if !strings.Contains(out.String(), "the apply in flight has 5m0s to finish") {
		t.Errorf("strata apply after the first SIGTERM = %s, want the apply in flight given its grace", out)
	}
	got, code := c.apply()
	if code != exitConverged || strings.Contains(got, "held") {
		t.Fatalf("strata apply after strata was ended exited %d, want %d with nothing held\nfirst:\n%s\nsecond:\n%s", code, exitConverged, out, got)
	}
	c.check()
}
