package tofu

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// ErrInterrupted means strata interrupted tofu (SIGINT) because it was
// stopping or out of time: the apply did not run to its end.
var ErrInterrupted = errors.New("tofu was interrupted")

// ApplyOptions configure an apply.
type ApplyOptions struct {
	// Run is the history number of the run, kept in the run record.
	Run int
	// StopGrace is how long an apply may go on after strata is asked to
	// stop (the context is cancelled) before tofu is interrupted. A
	// context that runs out of time (a timeout) interrupts tofu at once.
	StopGrace time.Duration
	// Stopping, when set, is told what happens to the apply when the
	// context ends, for the run's log.
	Stopping func(msg string)
	// Targets and Parallelism are passed as plan passes them
	// (PlanOptions); the plan file already limits the apply to its
	// targets, and tofu accepts them again.
	Targets     []string
	Parallelism int
	// Refresh passes -refresh=true, as the Tofu Controller does for
	// spec.refreshBeforeApply. tofu applies a saved plan as it was
	// planned: the plan itself refreshed the state.
	Refresh bool
}

// Apply runs `tofu apply` on exactly the saved plan file, and nothing else:
// what is applied is what was planned. Progress reaches events as it
// happens.
//
// Unlike every other command, apply does not go through terraform-exec,
// which ties tofu's life to strata's (a parent-death signal). tofu runs in
// its own process group and writes its -json stream straight to
// StreamFile in the workspace, so that when strata dies the apply goes on,
// finishes and writes its state; the run record (RecordFile) lets the next
// strata find it and adopt its outcome (see Adopt). When tofu exits,
// whatever is left of its process group (a provisioner's children) is
// killed.
func (w *Workspace) Apply(ctx context.Context, planFile string, opts ApplyOptions, events func(Event)) error {
	fail := func(err error) error { return fmt.Errorf("tofu apply %s: %w", planFile, err) }
	streamPath := filepath.Join(w.dir, StreamFile)
	stream, err := os.OpenFile(streamPath, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return fail(err)
	}
	defer stream.Close()
	stderr, err := os.OpenFile(filepath.Join(w.dir, StderrFile), os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return fail(err)
	}
	defer stderr.Close()

	rec := Record{
		Run: opts.Run, PlanFile: planFile, Host: hostname(),
		Strata: os.Getpid(), StrataStart: procStart(os.Getpid()),
		Started: time.Now().UTC(),
	}
	if err := writeRecord(w.dir, rec); err != nil {
		return fail(err)
	}
	args := []string{"apply", "-json", "-no-color", "-input=false"}
	if opts.Refresh {
		args = append(args, "-refresh=true")
	}
	args = append(args, runArgs(opts.Targets, opts.Parallelism)...)
	cmd := exec.Command(w.binary, append(args, planFile)...)
	cmd.Dir = w.dir
	cmd.Env = w.applyEnv()
	// Files, not pipes: tofu must not die writing to a strata that is gone.
	cmd.Stdout, cmd.Stderr = stream, stderr
	// Its own process group, and no parent-death signal.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fail(err)
	}
	pid := cmd.Process.Pid
	rec.PID, rec.PIDStart = pid, procStart(pid)
	if err := writeRecord(w.dir, rec); err != nil {
		// tofu runs: it is waited for all the same.
		_ = cmd.Wait()
		endGroup(pid)
		return fail(err)
	}

	ew := newEventWriter(events)
	tailDone := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(tailDone)
		tail(streamPath, ew, exited)
	}()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()

	werr, interrupted := w.waitApply(ctx, pid, opts, waited)
	endGroup(pid)
	close(exited)
	<-tailDone

	code := cmd.ProcessState.ExitCode()
	rec.Exit, rec.Finished = &code, time.Now().UTC()
	if err := writeRecord(w.dir, rec); err != nil {
		werr = errors.Join(werr, err)
	}
	if werr = ew.wrap(werr); werr != nil {
		if interrupted {
			werr = fmt.Errorf("%w: %w", ErrInterrupted, werr)
		}
		return fail(werr)
	}
	return nil
}

// waitApply waits for tofu to exit. When the context ends first, tofu is
// given opts.StopGrace (none for a timeout) to finish, then an interrupt,
// then the workspace's grace period to stop before its process group is
// killed. It reports whether tofu was interrupted.
func (w *Workspace) waitApply(ctx context.Context, pid int, opts ApplyOptions, waited <-chan error) (error, bool) {
	say := func(msg string) {
		if opts.Stopping != nil {
			opts.Stopping(msg)
		}
	}
	select {
	case err := <-waited:
		return err, false
	case <-ctx.Done():
	}
	if grace := opts.StopGrace; grace > 0 && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		say(fmt.Sprintf("strata is stopping: the apply in flight has %s to finish before tofu is interrupted", grace))
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case err := <-waited:
			return err, false
		case <-t.C:
		}
	}
	say(fmt.Sprintf("interrupting tofu; it has %s to stop and write its state", w.grace))
	_ = syscall.Kill(pid, syscall.SIGINT)
	t := time.NewTimer(w.grace)
	defer t.Stop()
	select {
	case err := <-waited:
		return err, true
	case <-t.C:
	}
	say("tofu did not stop in time: killing it")
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	return <-waited, true
}

// applyEnv is the workspace's environment for a tofu run outside
// terraform-exec. tofu persists state during a long apply at most every
// TF_STATE_PERSIST_INTERVAL seconds (20, its minimum and default, unless
// the environment asks for more), and at once when interrupted.
func (w *Workspace) applyEnv() []string {
	env := append(w.environ(), "CHECKPOINT_DISABLE=1")
	if _, ok := w.env[persistIntervalVar]; !ok {
		env = append(env, persistIntervalVar+"=20")
	}
	return env
}

const persistIntervalVar = "TF_STATE_PERSIST_INTERVAL"

// tail copies the stream file to w as it grows, until exited is closed
// and everything written before is read.
func tail(path string, w io.Writer, exited <-chan struct{}) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	buf := make([]byte, 32*1024)
	for {
		n, err := f.Read(buf)
		if n > 0 {
			_, _ = w.Write(buf[:n])
		}
		if err == nil {
			continue
		}
		select {
		case <-exited:
			// tofu has exited: read what is left, then stop.
			for {
				n, err := f.Read(buf)
				if n > 0 {
					_, _ = w.Write(buf[:n])
				}
				if err != nil {
					return
				}
			}
		case <-time.After(100 * time.Millisecond):
		}
	}
}
