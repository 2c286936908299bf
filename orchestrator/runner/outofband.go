package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/statedir"
	"github.com/strata-iac/strata/orchestrator/statefile"
)

// StateReader reads the version and the lock of a state object in the
// environment's S3 state backend; each reports false when there is none.
type StateReader interface {
	Read(ctx context.Context, key string) (statefile.Version, bool, error)
	ReadLock(ctx context.Context, key string) (statefile.Lock, bool, error)
}

// StateOpener opens a reader of one S3 bucket, for the stacks whose own
// backend configuration keeps their state there.
type StateOpener func(ctx context.Context, bucket, region, endpoint string) (StateReader, error)

// stateVersion reads the version of the stack's state where that is cheap:
// a local state file, or an object in S3 (the environment's backend, or
// the stack's own s3 backend block). Another backend is not read (false).
func (r *Runner) stateVersion(ctx context.Context, req Request) (statefile.Version, bool, error) {
	if r.localState(req) {
		path, err := r.localStatePath(req)
		if err != nil {
			return statefile.Version{}, false, err
		}
		if v := r.versionsOf(req); v != nil {
			return v.ReadLocal(path)
		}
		return statefile.ReadLocal(path)
	}
	states, key, ok, err := r.s3State(ctx, req)
	if !ok || err != nil {
		return statefile.Version{}, false, err
	}
	return states.Read(ctx, key)
}

// s3State is the reader and the key of a stack's state in S3: the
// environment's S3 backend, or the s3 backend block of the stack's
// backendConfig.customConfiguration. It reports false for state elsewhere,
// for the module's own backend (spec.backendConfig.disable), which only
// tofu reads, and for a backend that spec.backendConfigsFrom completes: its settings
// (the credentials among them) are init's only, so strata does not read
// that state itself, and tofu's refresh at each plan is what sees a
// change made outside strata.
func (r *Runner) s3State(ctx context.Context, req Request) (StateReader, string, bool, error) {
	if len(req.Stack.Run.BackendConfigs) > 0 || req.Stack.BackendDisabled {
		return nil, "", false, nil
	}
	if req.Stack.BackendConfig == "" {
		if r.cfg.Backend.Kind != BackendS3 || r.cfg.StateReader == nil {
			return nil, "", false, nil
		}
		return r.cfg.StateReader, workspaceKey(req, s3StateKey(req)), true, nil
	}
	b, ok := statefile.ParseS3Backend(req.Stack.BackendConfig)
	if !ok || r.cfg.OpenState == nil {
		return nil, "", false, nil
	}
	id := b.Bucket + "\x00" + b.Region + "\x00" + b.Endpoint
	r.statesMu.Lock()
	defer r.statesMu.Unlock()
	if states, ok := r.states[id]; ok {
		return states, workspaceKey(req, b.Key), true, nil
	}
	states, err := r.cfg.OpenState(ctx, b.Bucket, b.Region, b.Endpoint)
	if err != nil {
		return nil, "", false, fmt.Errorf("read state of stack %s: %w", req.Stack.Name, err)
	}
	if r.states == nil {
		r.states = map[string]StateReader{}
	}
	r.states[id] = states
	return states, workspaceKey(req, b.Key), true, nil
}

// checkState notes what the resources strata interrupted in the last run
// were (policy lets their replacement through), and why the stack cannot
// count as up to date although its
// inputs are unchanged: its last run failed or was interrupted, or its
// state changed outside strata since the last good apply ("state changed
// outside strata: serial 7 → 9"). It returns "" when neither holds.
// The last run is read once in a run (lastRunOf), for both and for the
// retry wait before them.
func (r *Runner) checkState(ctx context.Context, st *runState) error {
	last, ok, err := r.lastRunOf(ctx, st)
	ok = ok && err == nil
	st.in.stateChange = r.stateChange(ctx, st.log, st.req, st.prev, st.hasPrev, last, ok)
	switch {
	case ok && last.Cause == CauseInterrupted && (last.Result == history.ResultInterrupted || last.Result == history.ResultHeld):
		// The crash's resources stay lost until an apply succeeds.
		st.lost = last.Interrupted
	case ok && last.Result == history.ResultInterrupted:
		st.interrupted = last.Interrupted
	}
	return nil
}

// stateChange says why the stack's state is planned again: the last run
// (last, when hasLast) failed or was interrupted, or the state changed
// outside strata since the last good apply, prev; "" when neither holds.
func (r *Runner) stateChange(ctx context.Context, log *slog.Logger, req Request, prev history.Run, hasPrev bool, last history.Run, hasLast bool) string {
	if req.Operation != history.OperationApply || !hasPrev {
		return ""
	}
	if hasLast && last.Number != prev.Number && (last.Result == history.ResultFailed || last.Result == history.ResultInterrupted) {
		return fmt.Sprintf("the last run, #%d, was %s, so the state is planned again", last.Number, last.Result)
	}
	// A state changed outside strata is drift: with drift detection
	// disabled it is not looked for.
	if prev.StateLineage == "" || req.Stack.DisableDriftDetection {
		return ""
	}
	cur, ok, err := r.stateVersion(ctx, req)
	if err != nil {
		// The plan reads the state itself, and says what is wrong.
		log.Warn(err.Error())
		return "state could not be read, so it is planned again"
	}
	recorded := statefile.Version{Serial: prev.StateSerial, Lineage: prev.StateLineage}
	if !ok {
		return fmt.Sprintf("state changed outside strata: it was deleted (serial %d when run #%d recorded it)", recorded.Serial, prev.Number)
	}
	if change := statefile.Change(recorded, cur); change != "" {
		return "state changed outside strata: " + change
	}
	return ""
}

// noteState records the version of the state an apply left, applied or
// without changes. It reads it even when strata is stopping: the apply
// finished within the shutdown grace.
func (r *Runner) noteState(ctx context.Context, st *runState) error {
	if st.req.Operation != history.OperationApply || st.removal != nil {
		return nil
	}
	if res := st.run.Result; res != history.ResultApplied && res != history.ResultNoChanges {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), afterStop)
	defer cancel()
	r.readState(ctx, st.log, st.req, &st.run)
	return nil
}

// inventory lists the resources an apply left in the state, when the
// stack asks for them (spec.enableInventory), as the Tofu Controller's
// inventory: a failure to read them is a warning.
func (r *Runner) inventory(ctx context.Context, st *runState) error {
	if !st.req.Stack.Run.Inventory || st.run.Result != history.ResultApplied || st.ws == nil || st.ws.destroy {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), afterStop)
	defer cancel()
	res, err := st.ws.tofu.Resources(ctx)
	if err != nil {
		st.log.Warn(fmt.Sprintf("inventory of stack %s: %v", st.req.Stack.Name, err))
		return nil
	}
	st.run.Inventory = make([]history.Resource, 0, len(res))
	for _, x := range res {
		st.run.Inventory = append(st.run.Inventory, history.Resource{Type: x.Type, Name: x.Name, Module: x.Module, ID: x.ID})
	}
	return nil
}

// afterStop bounds what a run still does after its apply once strata is
// stopping: read the state's version and publish the contract.
const afterStop = 30 * time.Second

// readState records in run the version of the state the run left.
func (r *Runner) readState(ctx context.Context, log *slog.Logger, req Request, run *history.Run) {
	v, ok, err := r.stateVersion(ctx, req)
	if err != nil {
		log.Warn(err.Error())
		return
	}
	if ok {
		run.StateSerial, run.StateLineage = v.Serial, v.Lineage
	}
}

// versionsOf returns the kept state versions of req's environment,
// loaded on first use; nil when their file cannot be named.
func (r *Runner) versionsOf(req Request) *statefile.Versions {
	key := req.Client + "/" + req.Env
	r.versionsMu.Lock()
	defer r.versionsMu.Unlock()
	if v, ok := r.versions[key]; ok {
		return v
	}
	file, err := r.paths.Join(r.cfg.StateDir, statedir.StateVersions, req.Client, req.Env+".json")
	var v *statefile.Versions
	if err == nil {
		v = statefile.LoadVersions(file)
	}
	if r.versions == nil {
		r.versions = map[string]*statefile.Versions{}
	}
	r.versions[key] = v
	return v
}

// SaveVersions writes back the state versions the Runner's reads kept
// (versionsOf): once a reconcile's runs are done. An error is only a
// cache not written: the next reconcile reads the files again.
func (r *Runner) SaveVersions() error {
	r.versionsMu.Lock()
	defer r.versionsMu.Unlock()
	var errs []error
	for _, v := range r.versions {
		if v != nil {
			errs = append(errs, v.Save())
		}
	}
	return errors.Join(errs...)
}

// localStatePath is the stack's default local state file, under the state
// directory.
func (r *Runner) localDefaultStatePath(req Request) (string, error) {
	return r.paths.Join(r.cfg.StateDir, statedir.State, req.Client, req.Env, req.Stack.Name+".tfstate")
}

// localStatePath is the stack's local state in its tofu workspace: the
// backend's path for the default workspace, else
// <path>.d/<workspace>/terraform.tfstate (the backend's workspace_dir).
func (r *Runner) localStatePath(req Request) (string, error) {
	if ws := req.Stack.Run.Workspace; ws != "" {
		return r.paths.Join(r.cfg.StateDir, statedir.State, req.Client, req.Env, req.Stack.Name+".tfstate.d", ws, "terraform.tfstate")
	}
	return r.localDefaultStatePath(req)
}

func s3StateKey(req Request) string {
	return fmt.Sprintf("%s/%s/stacks/%s.tfstate", req.Client, req.Env, req.Stack.Name)
}

// workspaceKey is where the s3 backend keeps the state of key in the
// stack's tofu workspace: key itself for the default workspace, else
// env:/<workspace>/key (workspace_key_prefix's default, the only one
// strata reads).
func workspaceKey(req Request, key string) string {
	if ws := req.Stack.Run.Workspace; ws != "" {
		return "env:/" + ws + "/" + key
	}
	return key
}

// lastRunOf is the stack's last plan or apply (its head's Ran: a
// person's unlock in between changes nothing of how that run ended), as
// far as a reconcile reads it.
func (r *Runner) lastRunOf(ctx context.Context, st *runState) (history.Run, bool, error) {
	h, err := r.headOf(ctx, st)
	return h.Ran, err == nil && h.Ran.Number > 0, err
}
