package runner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/statefile"
)

// UnlockRequest is a person's release of a stack's state lock.
type UnlockRequest struct {
	Client, Env string
	Stack       *environment.Stack
	// LockID is the lock to release, as the lock's report names it.
	LockID string
	// By and Reason say who releases it, and why.
	By, Reason string
}

// Unlock runs `tofu force-unlock` for the stack's state in its workspace
// and records who did it in history. When the lock can be read (local or
// S3 state), a lock with another ID is refused: only the lock that was
// reported is released.
func (r *Runner) Unlock(ctx context.Context, req UnlockRequest) (history.Run, error) {
	name := req.Stack.Name
	fail := func(err error) (history.Run, error) {
		return history.Run{}, fmt.Errorf("unlock stack %s: %w", name, err)
	}
	dir, err := r.workspacePath(req.Client, req.Env, name)
	if err != nil {
		return fail(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform")); errors.Is(err, fs.ErrNotExist) {
		return fail(fmt.Errorf("no initialised workspace in %s: strata has not run the stack with this state directory, so it knows no lock of it", dir))
	}
	rreq := Request{Client: req.Client, Env: req.Env, Stack: req.Stack}
	note := fmt.Sprintf("released lock %s", req.LockID)
	l, ok, err := r.stateLock(ctx, rreq)
	switch {
	case err != nil:
		return fail(err)
	case ok && l.ID != req.LockID:
		return fail(fmt.Errorf("the state's lock is %s, not %s: %s; nothing was released", l.ID, req.LockID, l.Describe(r.cfg.Now())))
	case ok:
		note = "released " + l.Describe(r.cfg.Now())
	}
	started := r.cfg.Now()
	switch {
	case ok && l.HolderPID != 0:
		// A local lock is the kernel's, held by a live process.
		return fail(fmt.Errorf("process %d on this host holds lock %s; stop it, and the kernel releases the lock", l.HolderPID, l.ID))
	case ok && !l.Held:
		// A local lock no process holds any more: what is left is the
		// info file a crash left behind.
		path, err := r.localStatePath(rreq)
		if err != nil {
			return fail(err)
		}
		if err := os.Remove(statefile.LocalLockInfo(path)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fail(err)
		}
	default:
		// With the stack's environment and CLI configuration: a
		// backend of the module's may need its credentials.
		cliConfig, err := r.cliConfig(dir, req.Stack.Run.CLIConfig, nil)
		if err != nil {
			return fail(err)
		}
		tw, err := r.openTofu(dir, tofuSetup{cliConfig: cliConfig, run: req.Stack.Run})
		if err != nil {
			return fail(err)
		}
		if err := tw.ForceUnlock(ctx, req.LockID); err != nil {
			return fail(err)
		}
	}
	run, err := r.cfg.History.Begin(ctx, history.Run{
		Client: req.Client, Env: req.Env, Stack: name,
		Operation: history.OperationUnlock, StartedAt: started.UTC(),
	})
	if err != nil {
		return fail(err)
	}
	run.Result = history.ResultUnlocked
	run.Note = fmt.Sprintf("%s; by %s: %s", note, req.By, req.Reason)
	run.Duration = r.cfg.Now().Sub(started)
	if err := r.cfg.History.Record(context.WithoutCancel(ctx), run); err != nil {
		return fail(err)
	}
	return run, nil
}
