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
// It reads the environment's chunks of heads (see indexBucket), which lie
// together; a reader of a file whose heads are not current, or a damaged
// chunk, reads the environment's bucket of stacks instead.
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
			stacks, err = headStacks(tx, client, env)
			return err
		})
	}
	if !s.heads || errors.Is(err, errChunk) {
		// A damaged chunk: the environment's bucket says.
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
// stack with a run, since Begin keeps the head of the run it stores. It
// reads the environment's chunks of heads, and decodes no head.
func headStacks(tx *bolt.Tx, client, env string) ([]string, error) {
	ib := tx.Bucket(indexBucket)
	if ib == nil || ib.Bucket(indexChunks) == nil {
		return nil, nil
	}
	var stacks []string
	prefix := envPrefix(client, env)
	c := ib.Bucket(indexChunks).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if err := walkChunk(k, v, func(stack, _ []byte) {
			stacks = append(stacks, string(stack))
		}); err != nil {
			return nil, err
		}
	}
	// Chunks sort by the name's length first.
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
