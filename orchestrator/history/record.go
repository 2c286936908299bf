package history

import (
	"context"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Record stores r over the run with its number, which Begin must have
// created.
func (s *Store) Record(ctx context.Context, r Run) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("record run %s #%d: %w", stackKey(r), r.Number, err)
	}
	err := s.update(func(tx *bolt.Tx) error {
		b := stackBucket(tx, r.Client, r.Env, r.Stack)
		if r.Number <= 0 || b == nil || b.Get(key(r.Number)) == nil {
			return errors.New("no such run: Begin it first")
		}
		b.FillPercent = runsFill
		if err := putRun(b, r); err != nil {
			return err
		}
		return indexRun(tx, b, r)
	})
	if err != nil {
		return fmt.Errorf("record run %s #%d: %w", stackKey(r), r.Number, err)
	}
	return nil
}
