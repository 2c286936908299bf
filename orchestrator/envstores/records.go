package envstores

import (
	"context"
	"path/filepath"
	"time"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/runner"
	"github.com/strata-iac/strata/orchestrator/statedir"
)

// History is an environment's record of runs as a reconcile and the
// read-only commands use it: what a runner records and reads, the stacks
// that have runs, and the claims on identities and state keys.
type History interface {
	runner.History
	// Stacks returns every stack of the environment that has runs,
	// sorted.
	Stacks(ctx context.Context, client, env string) ([]string, error)
	// Claim records owner as the owner of every key; a key another owner
	// holds (and gone does not release) is returned with its owner, and
	// nothing is recorded then.
	Claim(ctx context.Context, owner string, keys []string, gone func(owner string) bool) (map[string]string, error)
}

// Approvals is an environment's held plans and approvals: what a runner
// holds and reads, and a person's approval.
type Approvals interface {
	runner.Approvals
	Approve(ctx context.Context, a approval.Approval) error
}

// Records opens where an environment's history and held plans are kept.
// A reconcile whose Options.Records is nil uses FileRecords: the state
// directory.
type Records interface {
	// OpenHistory opens the history for writing, or for reading only
	// (which never waits for a writer). fromSnapshot is true when a
	// read-only history reads what a running writer's history was when it
	// began; close releases it.
	OpenHistory(ctx context.Context, env *environment.Environment, set environment.Settings, readOnly bool) (h History, fromSnapshot bool, close func() error, err error)
	// OpenApprovals opens the held plans and approvals.
	OpenApprovals(ctx context.Context, env *environment.Environment, set environment.Settings) (Approvals, error)
}

// FileRecords keeps history in the state directory's bbolt file
// (history.db) and held plans under its held directory: one writer at a
// time, through the file's lock.
type FileRecords struct{}

// OpenHistory opens the state directory's history file; a writer of this
// process shares it with the other reconciles of the process.
func (FileRecords) OpenHistory(ctx context.Context, env *environment.Environment, set environment.Settings, readOnly bool) (History, bool, func() error, error) {
	var opts []history.Option
	if readOnly {
		opts = append(opts, history.ReadOnly())
	}
	h, closeHistory, err := openHistory(ctx, HistoryFile(set), opts...)
	if err != nil {
		return nil, false, nil, err
	}
	retain(h, env, set)
	return h, h.FromSnapshot(), closeHistory, nil
}

// Retention is how long the history of an environment with settings set
// keeps each stack's runs: set.KeepRuns, or set.KeepDays days.
func Retention(set environment.Settings) history.Retention {
	return history.Retention{Runs: set.KeepRuns, Age: time.Duration(set.KeepDays) * history.Day}
}

// retainer is a history that lets runs go (history.Store, and the shared
// records of package records).
type retainer interface {
	Retain(client, env string, keep history.Retention, gone func(stack string, number int))
}

// retain tells the history how long to keep the environment's runs, as
// its settings say, and to remove each run's log file (RunLogDir) with
// its run. A log file that cannot be removed stays, and harms nothing: no
// run refers to it, and the run's number is never given again.
func retain(h any, env *environment.Environment, set environment.Settings) {
	r, ok := h.(retainer)
	if !ok {
		return
	}
	logs := RunLogDir(set.StateDir, env.Client, env.Name)
	r.Retain(env.Client, env.Name, Retention(set), func(stack string, number int) {
		_ = runlog.RemoveRunLog(logs, stack, number)
	})
}

// OpenApprovals opens the held plans under the state directory.
func (FileRecords) OpenApprovals(ctx context.Context, env *environment.Environment, set environment.Settings) (Approvals, error) {
	return approval.New(filepath.Join(set.StateDir, statedir.Held)), nil
}

// SharedStore is records that several processes read and write at once,
// such as package records' engine over the cluster's objects (package
// kuberecords) or a bucket's (package s3records): history, held plans and
// approvals in one.
type SharedStore interface {
	History
	Approvals
	// Interrupt marks the environment's runs still "running" as
	// interrupted: no run of it can still be going.
	Interrupt(ctx context.Context, client, env string) error
}

// SharedRecords returns the Records that keep every environment's history
// and held plans in s, for a process that does not lead: a runner pod, a
// command that reads or approves, the web view. Opening them changes
// nothing.
func SharedRecords(s SharedStore) Records { return sharedRecords{pick: one(s)} }

// LeaderRecords returns the Records in s of the process that runs the
// reconciles (the leader): a writer's open marks the environment's runs
// left "running" as interrupted, as a file history's open does, since a
// reconcile of an environment runs in one process at a time and no run of
// it can still be going. A runner pod that outlived the last leader and
// records its run afterwards keeps the result it records.
func LeaderRecords(s SharedStore) Records { return sharedRecords{pick: one(s), leader: true} }

// LeaderRecordsBy is LeaderRecords with a store per environment, which
// pick returns: strata controller keeps each namespace's records in that
// namespace.
func LeaderRecordsBy(pick func(env *environment.Environment) (SharedStore, error)) Records {
	return sharedRecords{pick: pick, leader: true}
}

func one(s SharedStore) func(*environment.Environment) (SharedStore, error) {
	return func(*environment.Environment) (SharedStore, error) { return s, nil }
}

type sharedRecords struct {
	pick   func(env *environment.Environment) (SharedStore, error)
	leader bool
}

func (r sharedRecords) OpenHistory(ctx context.Context, env *environment.Environment, set environment.Settings, readOnly bool) (History, bool, func() error, error) {
	s, err := r.pick(env)
	if err != nil {
		return nil, false, nil, err
	}
	if r.leader && !readOnly {
		if err := s.Interrupt(ctx, env.Client, env.Name); err != nil {
			return nil, false, nil, err
		}
	}
	if !readOnly {
		retain(s, env, set)
	}
	return s, false, func() error { return nil }, nil
}

func (r sharedRecords) OpenApprovals(ctx context.Context, env *environment.Environment, set environment.Settings) (Approvals, error) {
	return r.pick(env)
}
