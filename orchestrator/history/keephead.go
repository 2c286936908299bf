package history

import (
	"bytes"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// chunks returns the index's bucket of the heads' chunks, creating it.
func chunks(tx *bolt.Tx) (*bolt.Bucket, error) {
	ib, err := tx.CreateBucketIfNotExists(indexBucket)
	if err != nil {
		return nil, err
	}
	cb, err := ib.CreateBucketIfNotExists(indexChunks)
	if err != nil {
		return nil, err
	}
	// A reconcile reads every chunk: pages filled to the brim are fewer
	// pages to map. Chunks change in place, and keep their size but for
	// a few bytes.
	cb.FillPercent = headsFill
	return cb, nil
}

// headsFill is how full bbolt fills the chunks' pages when it splits them
// (bbolt's default is half).
const headsFill = 1.0

// keepHead keeps the head of r's stack, which the transaction has just
// stored r in: r is the newest run when no newer one is, the newest that
// is not an unlock when it is none and no newer one is, and the last good
// run is run number good (0: none), as the index says. A head that does
// not decode is made anew from the stack's runs; a chunk that does not
// decode, with every head of the environment.
func keepHead(tx *bolt.Tx, sb *bolt.Bucket, r Run, good int) error {
	cb, err := chunks(tx)
	if err != nil {
		return err
	}
	ck, cv, next := chunkOf(cb, r.Client, r.Env, r.Stack)
	var entries []chunkEntry
	if ck != nil {
		if entries, err = decodeChunk(ck, cv); errors.Is(err, errChunk) {
			return rebuildChunks(tx, cb, r.Client, r.Env)
		}
	} else if next != nil {
		// The stack sorts before the environment's first chunk: it
		// begins that chunk now.
		ck = next
		if entries, err = decodeChunk(ck, cb.Get(ck)); errors.Is(err, errChunk) {
			return rebuildChunks(tx, cb, r.Client, r.Env)
		}
	}
	if err != nil {
		return err
	}
	h, err := updatedHead(sb, r, good, chunkHead(entries, r.Stack))
	if err != nil {
		return err
	}
	v, err := encodeHead(h)
	if err != nil {
		return err
	}
	return putChunk(cb, r.Client, r.Env, ck, withHead(entries, r.Stack, v), r.Stack)
}

// updatedHead is the stack's head, stored as v (nil: none), once r is
// stored and run number good is its last good run.
func updatedHead(sb *bolt.Bucket, r Run, good int, v []byte) (Head, error) {
	var h Head
	if v != nil {
		var err error
		h, err = decodeHead(r.Client, r.Env, r.Stack, v)
		if errors.Is(err, errHead) {
			return stackHead(sb, good)
		}
		if err != nil {
			return Head{}, err
		}
	}
	if r.Number >= h.Last.Number {
		h.Last = r
	}
	if r.Operation != OperationUnlock && r.Number >= h.Ran.Number {
		h.Ran = r
	}
	switch {
	case good == 0:
		h.Good = Run{}
	case good == r.Number:
		h.Good = r
	case good != h.Good.Number:
		var err error
		if h.Good, err = storedRun(sb, good); err != nil {
			return Head{}, err
		}
	}
	return HeadOf(h.Last, h.Ran, h.Good), nil
}

// withHead is the entries with the stack's head v, in its place.
func withHead(entries []chunkEntry, stack string, v []byte) []chunkEntry {
	for i, e := range entries {
		switch c := compareStacks(e.stack, stack); {
		case c == 0:
			entries[i].head = v
			return entries
		case c > 0:
			return append(entries[:i:i], append([]chunkEntry{{stack, v}}, entries[i:]...)...)
		}
	}
	return append(entries, chunkEntry{stack, v})
}

// rebuildChunks makes the heads of every stack of the environment anew
// from their runs, in new chunks.
func rebuildChunks(tx *bolt.Tx, cb *bolt.Bucket, client, env string) error {
	prefix := envPrefix(client, env)
	var old [][]byte
	c := cb.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		old = append(old, bytes.Clone(k))
	}
	for _, k := range old {
		if err := cb.Delete(k); err != nil {
			return err
		}
	}
	eb := envBucket(tx, client, env)
	if eb == nil {
		return nil
	}
	_, _, good, err := index(tx)
	if err != nil {
		return err
	}
	var entries []chunkEntry
	if err := eb.ForEachBucket(func(stack []byte) error {
		e, err := stackEntry(eb.Bucket(stack), client, env, string(stack), keyNumber(good.Get(stackID(client, env, string(stack)))))
		entries = append(entries, e)
		return err
	}); err != nil {
		return err
	}
	return packChunks(cb, client, env, entries)
}

// stackEntry is the chunk entry of the stack whose runs sb holds and
// whose last good run is number good (0: none), made from its runs.
func stackEntry(sb *bolt.Bucket, client, env, stack string, good int) (chunkEntry, error) {
	h, err := stackHead(sb, good)
	if err != nil {
		return chunkEntry{}, fmt.Errorf("%s/%s/%s: %w", client, env, stack, err)
	}
	v, err := encodeHead(h)
	if err != nil {
		return chunkEntry{}, err
	}
	return chunkEntry{stack, v}, nil
}

// stackHead is the head of the stack whose runs sb holds and whose last
// good run is number good (0: none). It reads the runs from the newest
// back to the newest that is not an unlock, and the good run.
func stackHead(sb *bolt.Bucket, good int) (Head, error) {
	var last, ran, g Run
	c := sb.Cursor()
	for k, v := c.Last(); k != nil; k, v = c.Prev() {
		r, err := decode(k, v)
		if err != nil {
			return Head{}, err
		}
		if last.Number == 0 {
			last = r
		}
		if r.Operation != OperationUnlock {
			ran = r
			break
		}
	}
	if good > 0 {
		var err error
		if g, err = storedRun(sb, good); err != nil {
			return Head{}, err
		}
	}
	return HeadOf(last, ran, g), nil
}

// storedRun reads run number n of the stack.
func storedRun(sb *bolt.Bucket, n int) (Run, error) {
	v := sb.Get(key(n))
	if v == nil {
		return Run{}, fmt.Errorf("no run #%d", n)
	}
	return decode(key(n), v)
}
