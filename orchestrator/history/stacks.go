package history

import (
	"context"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Stacks returns every stack of the environment that has history, sorted.
func (s *Store) Stacks(ctx context.Context, client, env string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("list stacks of %s/%s: %w", client, env, err)
	}
	var stacks []string
	err := s.view(func(tx *bolt.Tx) error {
		cb := tx.Bucket([]byte(client))
		if cb == nil {
			return nil
		}
		eb := cb.Bucket([]byte(env))
		if eb == nil {
			return nil
		}
		// bbolt keeps keys in byte order, which is string order.
		return eb.ForEachBucket(func(k []byte) error {
			stacks = append(stacks, string(k))
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list stacks of %s/%s: %w", client, env, err)
	}
	return stacks, nil
}
