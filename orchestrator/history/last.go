package history

import (
	"context"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Last returns the stack's newest run; false when it has none.
func (s *Store) Last(ctx context.Context, client, env, stack string) (Run, bool, error) {
	r, ok, err := s.newest(ctx, client, env, stack, nil)
	if err != nil {
		return Run{}, false, fmt.Errorf("last run of %s/%s/%s: %w", client, env, stack, err)
	}
	return r, ok, nil
}

// LastMatching returns the stack's newest run for which match is true;
// false when there is none. match must not call the Store.
func (s *Store) LastMatching(ctx context.Context, client, env, stack string, match func(Run) bool) (Run, bool, error) {
	r, ok, err := s.newest(ctx, client, env, stack, match)
	if err != nil {
		return Run{}, false, fmt.Errorf("last matching run of %s/%s/%s: %w", client, env, stack, err)
	}
	return r, ok, nil
}

// newest walks the stack's runs newest first and returns the first that
// matches (any, when match is nil).
func (s *Store) newest(ctx context.Context, client, env, stack string, match func(Run) bool) (Run, bool, error) {
	if err := ctx.Err(); err != nil {
		return Run{}, false, err
	}
	var (
		found Run
		ok    bool
	)
	err := s.view(func(tx *bolt.Tx) error {
		b := stackBucket(tx, client, env, stack)
		if b == nil {
			return nil
		}
		c := b.Cursor()
		for k, v := c.Last(); k != nil; k, v = c.Prev() {
			r, err := decode(k, v)
			if err != nil {
				return err
			}
			if match == nil || match(r) {
				found, ok = r, true
				return nil
			}
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		return nil
	})
	return found, ok, err
}

// LastGood returns the stack's last run that left it in a known good
// state: an apply that succeeded, with or without changes (a removal's
// included); false when there is none. It is what the next run's cause is
// worked out against, and what the versions report calls applied.
//
// It reads that run only: the index (see indexBucket) says which it is.
// A reader of a file whose index is not current reads the stack's runs
// back to it.
func (s *Store) LastGood(ctx context.Context, client, env, stack string) (Run, bool, error) {
	r, ok, indexed, err := s.indexedGood(ctx, client, env, stack)
	if err == nil && !indexed {
		r, ok, err = s.newest(ctx, client, env, stack, Run.Good)
	}
	if err != nil {
		return Run{}, false, fmt.Errorf("last good run of %s/%s/%s: %w", client, env, stack, err)
	}
	return r, ok, nil
}

// indexedGood reads the stack's last good run that the index names.
// indexed is false when the index cannot answer: it is not current, or
// names a run that is not there or not good.
func (s *Store) indexedGood(ctx context.Context, client, env, stack string) (r Run, ok, indexed bool, err error) {
	if err := ctx.Err(); err != nil {
		return Run{}, false, false, err
	}
	if !s.indexed {
		return Run{}, false, false, nil
	}
	err = s.view(func(tx *bolt.Tx) error {
		ib := tx.Bucket(indexBucket)
		if ib == nil || ib.Bucket(indexGood) == nil {
			return nil
		}
		n := ib.Bucket(indexGood).Get(stackID(client, env, stack))
		if n == nil {
			indexed = true // no good run
			return nil
		}
		sb := stackBucket(tx, client, env, stack)
		if sb == nil {
			return nil
		}
		v := sb.Get(n)
		if v == nil {
			return nil
		}
		if r, err = decode(n, v); err != nil {
			return err
		}
		ok = r.Good()
		indexed = ok
		return nil
	})
	return r, ok, indexed, err
}

// Good reports whether r is an apply that succeeded: what LastGood
// returns.
func (r Run) Good() bool {
	return r.Operation == OperationApply && (r.Result == ResultApplied || r.Result == ResultNoChanges)
}
