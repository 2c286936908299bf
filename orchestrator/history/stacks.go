package history

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// Stacks returns every stack of the environment that has history, sorted.
// It reads the environment's heads (see indexBucket), which lie together;
// a reader of a file whose heads are not current, or a store whose heads
// hold a key that does not decode, reads the environment's bucket of
// stacks instead.
func (s *Store) Stacks(ctx context.Context, client, env string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("list stacks of %s/%s: %w", client, env, err)
	}
	var (
		stacks []string
		err    error
	)
	if s.heads {
		err = s.view(func(tx *bolt.Tx) error {
			var herr error
			stacks, herr = headStacks(tx, client, env)
			if errors.Is(herr, errIndexKey) {
				stacks = bucketStacks(tx, client, env)
				return nil
			}
			return herr
		})
	} else {
		err = s.view(func(tx *bolt.Tx) error {
			stacks = bucketStacks(tx, client, env)
			return nil
		})
	}
	if err != nil {
		return nil, fmt.Errorf("list stacks of %s/%s: %w", client, env, err)
	}
	return stacks, nil
}

// headStacks lists the stacks of the environment that have a head: every
// stack with a run, since Begin keeps the head of the run it stores.
func headStacks(tx *bolt.Tx, client, env string) ([]string, error) {
	ib := tx.Bucket(indexBucket)
	if ib == nil || ib.Bucket(indexHeads) == nil {
		return nil, nil
	}
	var stacks []string
	prefix := envPrefix(client, env)
	c := ib.Bucket(indexHeads).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		parts, rest, err := splitStackID(k)
		if err != nil || len(rest) != 0 || parts[0] != client || parts[1] != env {
			return nil, fmt.Errorf("%w %q", errIndexKey, k)
		}
		stacks = append(stacks, parts[2])
	}
	// A stackID sorts by the name's length first.
	slices.Sort(stacks)
	return stacks, nil
}

// bucketStacks lists the stacks of the environment's bucket.
func bucketStacks(tx *bolt.Tx, client, env string) []string {
	cb := tx.Bucket([]byte(client))
	if cb == nil {
		return nil
	}
	eb := cb.Bucket([]byte(env))
	if eb == nil {
		return nil
	}
	var stacks []string
	// bbolt keeps keys in byte order, which is string order.
	_ = eb.ForEachBucket(func(k []byte) error {
		stacks = append(stacks, string(k))
		return nil
	})
	return stacks
}
