package history

import (
	"context"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// List returns the stack's runs, newest first: at most limit of them, or
// all when limit <= 0. A stack without runs has an empty list.
func (s *Store) List(ctx context.Context, client, env, stack string, limit int) ([]Run, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("list runs of %s/%s/%s: %w", client, env, stack, err)
	}
	var runs []Run
	err := s.view(func(tx *bolt.Tx) error {
		b := stackBucket(tx, client, env, stack)
		if b == nil {
			return nil
		}
		c := b.Cursor()
		for k, v := c.Last(); k != nil && (limit <= 0 || len(runs) < limit); k, v = c.Prev() {
			r, err := decode(k, v)
			if err != nil {
				return err
			}
			runs = append(runs, r)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list runs of %s/%s/%s: %w", client, env, stack, err)
	}
	return runs, nil
}
