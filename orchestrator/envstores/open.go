package envstores

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/contracts/stores"
	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/flux"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/statedir"
)

// Stores are an environment's stores: its contracts, and its history and
// held plans where its Records keep them.
type Stores struct {
	StateDir       string
	Contracts      contracts.Store
	ContractPrefix string
	History        History
	Approvals      Approvals
	fromSnapshot   bool
	closeHistory   func() error
}

// OpenStores opens the history, the held plans and the contract store of
// an environment, where its settings and recs say they are (nil:
// FileRecords, the state directory). A file history takes its write lock:
// one reconcile at a time.
func OpenStores(ctx context.Context, env *environment.Environment, set environment.Settings, recs Records) (*Stores, error) {
	return openStores(ctx, env, set, recs, false)
}

// OpenStoresReadOnly opens the stores for reading. It never waits for a
// running reconcile: while one holds a file history, the history reads as
// it was when that reconcile began (Stores.HistoryFromSnapshot).
func OpenStoresReadOnly(ctx context.Context, env *environment.Environment, set environment.Settings, recs Records) (*Stores, error) {
	return openStores(ctx, env, set, recs, true)
}

func openStores(ctx context.Context, env *environment.Environment, set environment.Settings, recs Records, readOnly bool) (*Stores, error) {
	if recs == nil {
		recs = FileRecords{}
	}
	cs, err := OpenContracts(ctx, env, set)
	if err != nil {
		return nil, err
	}
	as, err := recs.OpenApprovals(ctx, env, set)
	if err != nil {
		return nil, err
	}
	h, snap, closeHistory, err := recs.OpenHistory(ctx, env, set, readOnly)
	if err != nil {
		return nil, err
	}
	return &Stores{
		StateDir:       set.StateDir,
		Contracts:      cs,
		ContractPrefix: set.Contracts.Prefix,
		History:        h,
		Approvals:      as,
		fromSnapshot:   snap,
		closeHistory:   closeHistory,
	}, nil
}

// OpenContracts opens the environment's contract store, as its settings
// describe it. It makes no request.
func OpenContracts(ctx context.Context, env *environment.Environment, set environment.Settings) (contracts.Store, error) {
	c := set.Contracts
	dir, err := statedir.Join(set.StateDir, statedir.Contracts, env.Client, env.Name)
	if err != nil {
		return nil, fmt.Errorf("open contract store of %s/%s: %w", env.Client, env.Name, err)
	}
	cs, err := stores.Open(ctx, stores.Config{
		Kind:   c.Store,
		Dir:    dir,
		Region: c.Region, Endpoint: c.Endpoint, Bucket: c.Bucket, PathStyle: c.PathStyle, KMSKeyID: c.KMSKeyID,
	})
	if err != nil {
		return nil, fmt.Errorf("open contract store of %s/%s (%s): %w", env.Client, env.Name, flux.InitFile, err)
	}
	return cs, nil
}

// HistoryFile is the environment's history file under the state directory.
func HistoryFile(set environment.Settings) string {
	return filepath.Join(set.StateDir, statedir.History)
}

// openOrRepair opens the stores, or moves a damaged history aside and
// opens them again; the note says so.
func OpenOrRepair(ctx context.Context, log *slog.Logger, env *environment.Environment, set environment.Settings, recs Records) (*Stores, []string, error) {
	st, err := OpenStores(ctx, env, set, recs)
	if err == nil || !errors.Is(err, history.ErrCorrupt) {
		return st, nil, err
	}
	moved, rerr := history.Repair(HistoryFile(set), time.Now())
	if rerr != nil {
		return nil, nil, errors.Join(err, rerr)
	}
	note := fmt.Sprintf("%v; moved it to %s and started a new history: every stack is planned again, and stacks removed from the repository before now are no longer known", err, moved)
	log.Warn(note)
	st, err = OpenStores(ctx, env, set, recs)
	if err != nil {
		return nil, nil, err
	}
	return st, []string{note}, nil
}

// HistoryFromSnapshot reports whether the history reads the snapshot a
// running reconcile made when it began.
func (s *Stores) HistoryFromSnapshot() bool { return s.fromSnapshot }

// RunLogDir is where the lines of every run of an environment's stacks are
// kept: <state dir>/logs/<client>/<env>/<stack>/<run>.log.
func RunLogDir(stateDir, client, env string) string {
	return filepath.Join(stateDir, "logs", client, env)
}

// Close closes the stores. A history shared with other reconciles of this
// process stays open while they use it.
func (s *Stores) Close() error { return s.closeHistory() }
