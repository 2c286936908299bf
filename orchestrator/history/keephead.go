package history

import (
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// heads returns the index's bucket of heads, creating it.
func heads(tx *bolt.Tx) (*bolt.Bucket, error) {
	ib, err := tx.CreateBucketIfNotExists(indexBucket)
	if err != nil {
		return nil, err
	}
	hb, err := ib.CreateBucketIfNotExists(indexHeads)
	if err != nil {
		return nil, err
	}
	// A reconcile reads every stack's head: pages filled to the brim
	// are fewer pages to map. Heads change in place, and keep their size
	// but for a few bytes.
	hb.FillPercent = headsFill
	return hb, nil
}

// headsFill is how full bbolt fills the heads' pages when it splits them
// (bbolt's default is half).
const headsFill = 1.0

// keepHead keeps the head of r's stack, which the transaction has just
// stored r in: r is the newest run when no newer one is, the newest that
// is not an unlock when it is none and no newer one is, and the last good
// run is run number good (0: none), as the index says. A head that does
// not decode is made anew from the stack's runs.
func keepHead(tx *bolt.Tx, sb *bolt.Bucket, r Run, good int) error {
	hb, err := heads(tx)
	if err != nil {
		return err
	}
	id := stackID(r.Client, r.Env, r.Stack)
	var h Head
	if v := hb.Get(id); v != nil {
		h, err = decodeHead(r.Client, r.Env, r.Stack, v)
		if errors.Is(err, errHead) {
			return putHead(hb, sb, id, r.Client, r.Env, r.Stack, good)
		}
		if err != nil {
			return err
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
		if h.Good, err = storedRun(sb, good); err != nil {
			return err
		}
	}
	h = HeadOf(h.Last, h.Ran, h.Good)
	v, err := encodeHead(h)
	if err != nil {
		return err
	}
	return hb.Put(id, v)
}

// putHead makes the stack's head from its runs, whose last good run is
// run number good (0: none), and stores it.
func putHead(hb, sb *bolt.Bucket, id []byte, client, env, stack string, good int) error {
	h, err := stackHead(sb, good)
	if err != nil {
		return fmt.Errorf("%s/%s/%s: %w", client, env, stack, err)
	}
	v, err := encodeHead(h)
	if err != nil {
		return err
	}
	return hb.Put(id, v)
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
