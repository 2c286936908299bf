package runner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/statefile"
	"github.com/strata-iac/strata/orchestrator/tofu"
)

// checkLock looks at the lock of the stack's state before the plan takes
// it, and says what it finds: a lock info file that a crashed tofu left
// beside a local state (no process holds the lock any more: the file is
// removed), or a lock held with its holder, age and ID and the command
// that releases it. With spec.tfstate.forceUnlock: auto, a lock whose
// holder is provably dead (taken on this host, and no tofu runs in the
// stack's workspace), or the one the last pass reported held
// (Request.ReportedLock, as the Tofu Controller releases its
// status.lock.pending), is released; with forceUnlock: yes, the lock whose
// ID is spec.tfstate.lockIdentifier is released, and no other. A lock
// released is the run's Lock.Released; one left held is kept for finish,
// which names it when the plan fails on it.
func (r *Runner) checkLock(ctx context.Context, st *runState) error {
	if st.dead != nil && r.releaseDeadLock(ctx, st) {
		return nil
	}
	r.reportLock(ctx, st)
	return nil
}

// releaseDeadLock releases the state lock that the apply adopt found
// took, when its holder is provably dead by the run record: an apply's
// lock, taken on this host by the record's user after that tofu started,
// whose tofu (by process ID and start time) is gone, and no tofu runs in
// the workspace. It reports whether it released one.
func (r *Runner) releaseDeadLock(ctx context.Context, st *runState) bool {
	l, ok, err := r.stateLock(ctx, st.req)
	if err != nil || !ok || !l.Held || !lockOfDeadApply(l, *st.dead, hostname()) || len(tofu.RunningIn(st.ws.dir)) > 0 {
		return false
	}
	if err := st.ws.tofu.ForceUnlock(ctx, l.ID); err != nil {
		st.log.Warn(err.Error())
		return false
	}
	st.log.Warn(fmt.Sprintf("released the state lock of run #%d's apply, whose tofu (pid %d) is gone: %s", st.dead.Run, st.dead.PID, l.Describe(r.cfg.Now())))
	return true
}

// lockOfDeadApply reports whether lock l is the one the apply of rec
// took: an apply's lock, taken on host (the record's, and this one) no
// earlier than that apply started, held by no process of this host, and
// the record's tofu gone (strata never saw it exit, or saw it killed).
func lockOfDeadApply(l statefile.Lock, rec tofu.Record, host string) bool {
	return rec.Host == host && l.Host() == host && l.HolderPID == 0 &&
		strings.Contains(strings.ToLower(l.Operation), "apply") &&
		!l.Created.Before(rec.Started.Add(-time.Second)) &&
		(rec.Exit == nil || rec.Killed()) && !rec.TofuAlive()
}

func (r *Runner) reportLock(ctx context.Context, st *runState) {
	log, req, ws := st.log, st.req, st.ws
	l, ok, err := r.stateLock(ctx, req)
	if err != nil {
		log.Warn(err.Error())
		return
	}
	if !ok {
		return
	}
	what := l.Describe(r.cfg.Now())
	if !l.Held {
		path, err := r.localStatePath(req)
		if err != nil {
			log.Warn(err.Error())
			return
		}
		info := statefile.LocalLockInfo(path)
		log.Warn(fmt.Sprintf("stale state lock left by a crashed run: %s; no process holds it any more, so tofu takes it; removing %s", what, info))
		if err := os.Remove(info); err != nil && !errors.Is(err, fs.ErrNotExist) {
			log.Warn(err.Error())
		}
		return
	}
	release := func(msg string) {
		if err := ws.tofu.ForceUnlock(ctx, l.ID); err != nil {
			log.Warn(err.Error())
			st.lock = l
			return
		}
		st.run.Lock = &history.StateLock{Released: l.ID}
		log.Warn(msg)
	}
	s := req.Stack
	switch {
	case s.ForceUnlock == environment.ForceUnlockYes && l.ID == s.LockIdentifier:
		release(fmt.Sprintf("released the state lock %s, as spec.tfstate.forceUnlock: yes and lockIdentifier name it: %s", l.ID, what))
		return
	case s.ForceUnlock == environment.ForceUnlockYes:
		log.Warn(fmt.Sprintf("spec.tfstate.lockIdentifier is %s, but the state's lock is %s: it is not released", s.LockIdentifier, l.ID))
	case s.ForceUnlock == environment.ForceUnlockAuto && req.ReportedLock != "" && l.ID == req.ReportedLock:
		release(fmt.Sprintf("released the state lock %s, which the last pass reported held, as spec.tfstate.forceUnlock is auto: %s", l.ID, what))
		return
	case s.ForceUnlock == environment.ForceUnlockAuto && l.HolderPID == 0 && l.Host() == hostname() && len(tofu.RunningIn(ws.dir)) == 0:
		release(fmt.Sprintf("released the state lock its holder left: %s; it was taken on this host and no tofu runs in the stack's workspace any more (spec.tfstate.forceUnlock: auto)", what))
		return
	}
	st.lock = l
	holder := ""
	if l.HolderPID != 0 {
		holder = fmt.Sprintf(" (process %d holds it)", l.HolderPID)
	}
	log.Warn(fmt.Sprintf("the state is locked: %s%s; if its holder is gone, release it with: strata unlock %s %s %s",
		what, holder, req.EnvDir, req.Stack.Name, l.ID))
}

// lockHeld records in the run the lock its plan or apply failed on
// (err is tofu's state-lock error): the one checkLock found held, or
// the lock as read now.
func (r *Runner) lockHeld(ctx context.Context, st *runState, err error) {
	if !isLockError(err) {
		return
	}
	l := st.lock
	if l.ID == "" {
		got, ok, rerr := r.stateLock(ctx, st.req)
		if rerr != nil || !ok || !got.Held {
			return
		}
		l = got
	}
	st.run.Lock = &history.StateLock{Held: l.ID}
}

// stateLock reads the lock of the stack's state where that is cheap, as
// stateVersion reads the state: a local state's lock file, an S3 state's
// lock object, the kubernetes backend's Lease (with
// Config.KubernetesLocks).
func (r *Runner) stateLock(ctx context.Context, req Request) (statefile.Lock, bool, error) {
	if r.localState(req) {
		path, err := r.localStatePath(req)
		if err != nil {
			return statefile.Lock{}, false, err
		}
		return statefile.ReadLocalLock(path)
	}
	if b, ok := statefile.ParseKubernetesBackend(req.Stack.BackendConfig); ok && !req.Stack.BackendDisabled {
		if r.cfg.KubernetesLocks == nil {
			return statefile.Lock{}, false, nil
		}
		return r.cfg.KubernetesLocks(ctx, b, req.Stack.Run.Workspace)
	}
	states, key, ok, err := r.s3State(ctx, req)
	if !ok || err != nil {
		return statefile.Lock{}, false, err
	}
	return states.ReadLock(ctx, key)
}

func hostname() string {
	h, err := os.Hostname()
	if err != nil {
		return ""
	}
	return h
}
