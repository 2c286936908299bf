package history

import (
	"context"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// claimsBucket holds which environment owns each key that must belong to
// one environment only: its own identity and its stacks' state. Its name
// is no DNS-1123 label, so no client's bucket can take it.
var claimsBucket = []byte("_claims")

// errConflict rolls back a Claim that found another owner.
var errConflict = errors.New("claimed by another owner")

// Claim records owner as the owner of every key, in one transaction. A key
// another owner holds is a conflict: Claim records nothing then and
// returns each such key with its owner. A key whose owner gone reports as
// gone (say, a directory that left the repository) passes to owner.
func (s *Store) Claim(ctx context.Context, owner string, keys []string, gone func(owner string) bool) (map[string]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("claim keys of %s: %w", owner, err)
	}
	// Most reconciles claim what they claimed last time: reading that
	// writes nothing.
	held := true
	if err := s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(claimsBucket)
		for _, k := range keys {
			if b == nil || string(b.Get([]byte(k))) != owner {
				held = false
				return nil
			}
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("claim keys of %s: %w", owner, err)
	}
	if held {
		return nil, nil
	}
	conflicts := map[string]string{}
	err := s.update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(claimsBucket)
		if err != nil {
			return err
		}
		for _, k := range keys {
			prev := string(b.Get([]byte(k)))
			if prev != "" && prev != owner && !gone(prev) {
				conflicts[k] = prev
				continue
			}
			if prev == owner {
				continue
			}
			if err := b.Put([]byte(k), []byte(owner)); err != nil {
				return err
			}
		}
		if len(conflicts) > 0 {
			return errConflict
		}
		return nil
	})
	if errors.Is(err, errConflict) {
		return conflicts, nil
	}
	if err != nil {
		return nil, fmt.Errorf("claim keys of %s: %w", owner, err)
	}
	return nil, nil
}
