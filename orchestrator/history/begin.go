package history

import (
	"context"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Begin stores r as the stack's next run, with Result "running", and
// returns it with its Number. Numbers count each (client, env, stack) from
// 1. StartedAt is set to now when zero.
func (s *Store) Begin(ctx context.Context, r Run) (Run, error) {
	if err := ctx.Err(); err != nil {
		return Run{}, fmt.Errorf("begin run %s: %w", stackKey(r), err)
	}
	r.Result = ResultRunning
	if r.StartedAt.IsZero() {
		r.StartedAt = time.Now().UTC()
	}
	err := s.update(func(tx *bolt.Tx) error {
		b, err := createStackBucket(tx, r.Client, r.Env, r.Stack)
		if err != nil {
			return err
		}
		last, _ := b.Cursor().Last()
		r.Number = keyNumber(last) + 1
		if err := putRun(b, r); err != nil {
			return err
		}
		return indexRun(tx, b, r)
	})
	if err != nil {
		return Run{}, fmt.Errorf("begin run %s: %w", stackKey(r), err)
	}
	return r, nil
}

// stackKey names a run's stack in errors: client/env/stack.
func stackKey(r Run) string { return r.Client + "/" + r.Env + "/" + r.Stack }
