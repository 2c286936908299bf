package history

import (
	"context"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Begin stores r as the stack's next run, with Result "running", and
// returns it with its Number. Numbers count each (client, env, stack) from
// 1. StartedAt is set to now when zero. In the same transaction it deletes
// the stack's runs that its environment's Retention no longer keeps, as
// of r.StartedAt (see Retain).
func (s *Store) Begin(ctx context.Context, r Run) (Run, error) {
	if err := ctx.Err(); err != nil {
		return Run{}, fmt.Errorf("begin run %s: %w", stackKey(r), err)
	}
	r.Result = ResultRunning
	if r.StartedAt.IsZero() {
		r.StartedAt = time.Now().UTC()
	}
	p := s.policy(r.Client, r.Env)
	var gone []int
	err := s.update(func(tx *bolt.Tx) error {
		b, err := createStackBucket(tx, r.Client, r.Env, r.Stack)
		if err != nil {
			return err
		}
		// Runs are appended: pages filled to the brim.
		b.FillPercent = runsFill
		last, _ := b.Cursor().Last()
		r.Number = keyNumber(last) + 1
		if err := putRun(b, r); err != nil {
			return err
		}
		if err := indexRun(tx, b, r); err != nil {
			return err
		}
		gone, err = expire(tx, b, r, p.keep)
		return err
	})
	if err != nil {
		return Run{}, fmt.Errorf("begin run %s: %w", stackKey(r), err)
	}
	if p.gone != nil {
		for _, n := range gone {
			p.gone(r.Stack, n)
		}
	}
	return r, nil
}

// runsFill is how full bbolt fills the pages of a stack's runs when it
// splits them: runs are appended in the order of their keys, and bbolt's
// default (half) would leave every page it splits half empty for good.
const runsFill = 0.9

// stackKey names a run's stack in errors: client/env/stack.
func stackKey(r Run) string { return r.Client + "/" + r.Env + "/" + r.Stack }
