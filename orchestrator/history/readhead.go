package history

import (
	"context"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Head returns the stack's head: its newest run, its newest run that is
// not an unlock and its last good run, as far as a reconcile reads them
// (see Head); the zero Head when the stack has no run. It reads the stack's head in the index (see
// indexBucket) and no run. A reader of a file whose heads are not current
// (a strata without them wrote it last), or whose head of the stack does
// not decode, reads the stack's runs instead, as Last, LastMatching and
// LastGood do.
func (s *Store) Head(ctx context.Context, client, env, stack string) (Head, error) {
	if err := ctx.Err(); err != nil {
		return Head{}, fmt.Errorf("head of %s/%s/%s: %w", client, env, stack, err)
	}
	h, ok, err := s.storedHead(client, env, stack)
	if err == nil && !ok {
		h, err = s.headFromRuns(ctx, client, env, stack)
	}
	if err != nil {
		return Head{}, fmt.Errorf("head of %s/%s/%s: %w", client, env, stack, err)
	}
	return h, nil
}

// storedHead reads the stack's head from its chunk in the index; ok is
// false when the index cannot answer: the heads are not current, or the
// stack's head or its chunk does not decode. A stack with no head has no
// run.
func (s *Store) storedHead(client, env, stack string) (h Head, ok bool, err error) {
	if !s.heads {
		return Head{}, false, nil
	}
	err = s.view(func(tx *bolt.Tx) error {
		ib := tx.Bucket(indexBucket)
		if ib == nil || ib.Bucket(indexChunks) == nil {
			return nil
		}
		k, v, _ := chunkOf(ib.Bucket(indexChunks), client, env, stack)
		if k == nil {
			ok = true
			return nil
		}
		hv, derr := storedChunkHead(k, v, stack)
		if errors.Is(derr, errChunk) {
			return nil
		}
		if derr != nil {
			return derr
		}
		if hv == nil {
			ok = true
			return nil
		}
		h, derr = decodeHead(client, env, stack, hv)
		if errors.Is(derr, errHead) {
			return nil
		}
		ok = derr == nil
		return derr
	})
	return h, ok, err
}

// headFromRuns is the stack's head as its runs say.
func (s *Store) headFromRuns(ctx context.Context, client, env, stack string) (Head, error) {
	last, _, err := s.newest(ctx, client, env, stack, nil)
	if err != nil {
		return Head{}, err
	}
	ran, _, err := s.newest(ctx, client, env, stack, notUnlock)
	if err != nil {
		return Head{}, err
	}
	good, _, err := s.LastGood(ctx, client, env, stack)
	if err != nil {
		return Head{}, err
	}
	return HeadOf(last, ran, good), nil
}

// notUnlock matches the runs that are not a person's unlock: Head.Ran.
func notUnlock(r Run) bool { return r.Operation != OperationUnlock }
