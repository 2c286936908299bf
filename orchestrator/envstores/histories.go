package envstores

import (
	"context"
	"sync"

	"github.com/strata-iac/strata/orchestrator/history"
)

// histories shares one open history database per file among the
// reconciles of this process that run side by side (environments of one
// repository share a state directory). The database is locked against
// other processes while it is open, and a second open in this process
// would wait for the first reconcile to end, so reconciles side by side
// share the open one; it is closed when the last of them is done.
var histories = struct {
	sync.Mutex
	open map[string]*sharedHistory
}{open: map[string]*sharedHistory{}}

type sharedHistory struct {
	store *history.Store
	users int
}

// openHistory opens the history database at path for writing, or shares
// it when this process has it open already; close releases it. A
// read-only open (history.ReadOnly) is the caller's own.
func openHistory(ctx context.Context, path string, opts ...history.Option) (store *history.Store, close func() error, err error) {
	if len(opts) > 0 {
		s, err := history.Open(ctx, path, opts...)
		if err != nil {
			return nil, nil, err
		}
		return s, s.Close, nil
	}
	histories.Lock()
	defer histories.Unlock()
	h, ok := histories.open[path]
	if !ok {
		s, err := history.Open(ctx, path)
		if err != nil {
			return nil, nil, err
		}
		h = &sharedHistory{store: s}
		histories.open[path] = h
	}
	h.users++
	var once sync.Once
	return h.store, func() error {
		var err error
		once.Do(func() {
			histories.Lock()
			defer histories.Unlock()
			if h.users--; h.users == 0 {
				delete(histories.open, path)
				err = h.store.Close()
			}
		})
		return err
	}, nil
}
