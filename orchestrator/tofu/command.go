package tofu

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// commandGrace is how long a tofu command other than apply has to stop
// once interrupted before it is killed. tofu takes its time to stop a
// plan of many resources (47 s for 30,000 on the machine strata is built
// on), and a plan, an init, a show or a workspace selection writes no
// state: only an apply is given the whole grace period. A killed plan can
// leave the state lock it held in a remote backend; strata reports it on
// the next run, with the command that releases it.
const commandGrace = time.Second

// command runs one tofu command in the workspace, its stdout to stdout, and
// returns its exit code. Any exit code other than 0 comes with an error
// that carries what tofu printed on stderr; callers say which codes still
// mean success (plan's -detailed-exitcode exits 2 when there are changes).
// A command that could not run, or was stopped, returns -1.
//
// Like terraform-exec, tofu runs in its own process group and dies with
// strata; a cancelled ctx interrupts it (SIGINT) and kills it after
// commandGrace.
func (w *Workspace) command(ctx context.Context, stdout io.Writer, args ...string) (int, error) {
	return w.commandEnv(ctx, stdout, nil, args...)
}

// commandEnv is command with extra variables in tofu's environment.
func (w *Workspace) commandEnv(ctx context.Context, stdout io.Writer, extra map[string]string, args ...string) (int, error) {
	if err := ctx.Err(); err != nil {
		return -1, err
	}
	cmd := exec.CommandContext(ctx, w.binary, args...)
	cmd.Dir = w.dir
	cmd.Env = w.environ()
	for k, v := range extra {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdout = stdout
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = min(w.grace, commandGrace)
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		// Its providers too: the plugins of a killed tofu are its group's.
		endGroup(cmd.Process.Pid)
		return -1, fmt.Errorf("%w: %w", ctx.Err(), withStderr(err, &stderr))
	case errors.As(err, &exit):
		return exit.ExitCode(), withStderr(err, &stderr)
	case err != nil:
		return -1, withStderr(err, &stderr)
	}
	return 0, nil
}

// withStderr adds what tofu printed on stderr to err.
func withStderr(err error, stderr *bytes.Buffer) error {
	msg := bytes.TrimSpace(stderr.Bytes())
	if len(msg) == 0 {
		return err
	}
	return fmt.Errorf("%w: %s", err, msg)
}

// environ is the process environment of every command: the workspace's
// own, and TF_IN_AUTOMATION as terraform-exec sets it.
func (w *Workspace) environ() []string {
	env := make([]string, 0, len(w.env)+1)
	for k, v := range w.env {
		env = append(env, k+"="+v)
	}
	return append(env, "TF_IN_AUTOMATION=1")
}
