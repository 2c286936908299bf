package history

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// markInterrupted marks every run still "running" as "interrupted": only
// one process holds the file, so no such run can still be going. It reads
// the index's running runs and those runs only; when nothing is running
// it writes nothing. A file whose index is not current (written by a
// strata that kept none) has its index rebuilt from every run instead.
func (s *Store) markInterrupted() error {
	var current, idle bool
	if err := s.view(func(tx *bolt.Tx) error {
		current = indexed(tx) && headsCurrent(tx)
		if running := tx.Bucket(indexBucket); current && running != nil {
			if running = running.Bucket(indexRunning); running != nil {
				k, _ := running.Cursor().First()
				idle = k == nil
			}
		}
		return nil
	}); err != nil {
		return err
	}
	if current && idle {
		return nil
	}
	return s.update(func(tx *bolt.Tx) error {
		if current {
			err := interruptIndexed(tx)
			if !errors.Is(err, errIndexKey) {
				return err
			}
			// A damaged index key: the runs say what the index should.
		}
		return rebuildIndex(tx)
	})
}

// interruptIndexed marks the runs of the running index interrupted, with
// their stacks' heads, and empties it.
func interruptIndexed(tx *bolt.Tx) error {
	_, running, good, err := index(tx)
	if err != nil {
		return err
	}
	// Collect first: a bucket must not change under ForEach.
	var keys [][]byte
	if err := running.ForEach(func(k, _ []byte) error {
		keys = append(keys, bytes.Clone(k))
		return nil
	}); err != nil {
		return err
	}
	for _, k := range keys {
		client, env, stack, n, err := parseRunningKey(k)
		if err != nil {
			return err
		}
		if sb := stackBucket(tx, client, env, stack); sb != nil {
			if v := sb.Get(key(n)); v != nil {
				r, err := decode(key(n), v)
				if err != nil {
					return fmt.Errorf("%s/%s/%s: %w", client, env, stack, err)
				}
				if r.Result == ResultRunning {
					r = r.MarkInterrupted()
					if err := putRun(sb, r); err != nil {
						return err
					}
					if err := keepHead(tx, sb, r, keyNumber(good.Get(stackID(client, env, stack)))); err != nil {
						return err
					}
				}
			}
		}
		if err := running.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// rebuildIndex builds the index and the heads anew from every run of
// every stack, marking the runs still "running" interrupted on the way:
// the one full read of a file that a strata without the index, or without
// the heads, wrote.
func rebuildIndex(tx *bolt.Tx) error {
	if tx.Bucket(indexBucket) != nil {
		if err := tx.DeleteBucket(indexBucket); err != nil {
			return err
		}
	}
	ib, _, good, err := index(tx)
	if err != nil {
		return err
	}
	if err := ib.Put(indexID, []byte(rand.Text())); err != nil {
		return err
	}
	hb, err := chunks(tx)
	if err != nil {
		return err
	}
	return tx.ForEach(func(client []byte, cb *bolt.Bucket) error {
		if bytes.Equal(client, indexBucket) || bytes.Equal(client, claimsBucket) {
			return nil
		}
		return cb.ForEachBucket(func(env []byte) error {
			eb := cb.Bucket(env)
			var entries []chunkEntry
			if err := eb.ForEachBucket(func(stack []byte) error {
				sb := eb.Bucket(stack)
				last, err := rebuildStack(sb)
				if err != nil {
					return fmt.Errorf("%s/%s/%s: %w", client, env, stack, err)
				}
				e, err := stackEntry(sb, string(client), string(env), string(stack), last)
				if err != nil {
					return err
				}
				entries = append(entries, e)
				if last == 0 {
					return nil
				}
				return good.Put(stackID(string(client), string(env), string(stack)), key(last))
			}); err != nil {
				return err
			}
			// All of the environment's heads in one transaction: its
			// chunks lie together.
			return packChunks(hb, string(client), string(env), entries)
		})
	})
}

// rebuildStack marks the stack's runs still "running" interrupted and
// returns the number of its last good run, 0 when it has none.
func rebuildStack(sb *bolt.Bucket) (lastGood int, err error) {
	// Collect first: a bucket must not change under ForEach.
	var runs []Run
	err = sb.ForEach(func(k, v []byte) error {
		o, err := decodeOutcome(k, v)
		if err != nil {
			return err
		}
		switch {
		case o.good():
			lastGood = keyNumber(k)
		case o.Result == ResultRunning:
			r, err := decode(k, v)
			if err != nil {
				return err
			}
			runs = append(runs, r)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, r := range runs {
		if err := putRun(sb, r.MarkInterrupted()); err != nil {
			return 0, err
		}
	}
	return lastGood, nil
}
