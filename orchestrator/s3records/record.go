package s3records

import (
	"context"
	"errors"
	"fmt"

	"github.com/strata-iac/strata/orchestrator/history"
)

// errNoRun is a Record of a run that Begin did not create.
var errNoRun = errors.New("no such run: Begin it first")

// maxWriteTries bounds how often a read-and-write is tried again after
// another writer changed the object in between.
const maxWriteTries = 20

// Record stores r over the run with its number, which Begin must have
// created. It wins over a writer that marked the run interrupted
// meanwhile: the run's own writer knows how it ended. Each write names the
// ETag it read (If-Match), so it never brings back a run retention
// deleted.
func (s *Store) Record(ctx context.Context, r history.Run) error {
	if err := history.CheckKeys(ctx, r.Client, r.Env, r.Stack); err != nil {
		return fmt.Errorf("record run %s #%d: %w", stackKey(r), r.Number, err)
	}
	if r.Number <= 0 {
		return fmt.Errorf("record run %s #%d: %w", stackKey(r), r.Number, errNoRun)
	}
	b, err := encodeRun(r)
	if err != nil {
		return fmt.Errorf("record run %s #%d: %w", stackKey(r), r.Number, err)
	}
	key := s.runKey(r.Client, r.Env, r.Stack, r.Number)
	for range maxWriteTries {
		cur, ok, err := s.get(ctx, key)
		if err != nil {
			return fmt.Errorf("record run %s #%d: %w", stackKey(r), r.Number, err)
		}
		if !ok {
			return fmt.Errorf("record run %s #%d: %w", stackKey(r), r.Number, errNoRun)
		}
		err = s.put(ctx, key, b, cur.etag)
		if errors.Is(err, errChanged) {
			continue
		}
		if err != nil {
			return fmt.Errorf("record run %s #%d: %w", stackKey(r), r.Number, err)
		}
		return nil
	}
	return fmt.Errorf("record run %s #%d: other writers changed it %d times in a row; try again", stackKey(r), r.Number, maxWriteTries)
}
