package history

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The index answers, without reading any run, the two questions whose
// answer would otherwise take every run of the file or of a stack: which
// runs are still "running" (Open marks them interrupted), and which run is
// each stack's last good apply (LastGood). It lives in the bucket
// indexBucket, next to the clients' buckets (its name is no DNS-1123
// label, so no client's bucket can take it):
//
//   - running: a key for each run stored as "running", the stack's
//     stackID followed by the run's number, with no value; Begin adds it
//     and the Record that ends the run deletes it, in the same
//     transaction.
//   - good: the number of each stack's last good run, under the stack's
//     stackID; Record keeps it.
//   - chunks: each stack's Head, in a compact encoding (headJSON), in
//     chunks of an environment's stacks, one bbolt value each (see
//     chunkMax): a reconcile reads a stack's head, not its runs, and the
//     heads of an environment lie on a few contiguous stretches of pages,
//     whatever transactions wrote them, where the runs lie over the whole
//     file. Begin and Record keep them, with the runs they store.
//   - tx: the ID of the last write transaction that kept the index.
//   - chunksTx: the ID of the last write transaction that kept the
//     chunks.
//   - id: random bytes that name this file's history from the index's
//     building on: the file and a copy of it (the snapshot) with the
//     same id and transaction ID hold the same history.
//
// Every write transaction of a Store stamps tx with its own ID. bbolt
// numbers a file's write transactions, so a stamp that is not the file's
// last transaction means that something else wrote the file since: a
// strata from before the index, which neither keeps nor stamps it. The
// index is then rebuilt from every run, once, by the next writer's Open;
// until then a reader reads the runs themselves (Store.indexed). chunksTx
// does the same for the heads, which a strata that kept the index but no
// heads, or the heads in their first layout (a key per stack in a bucket
// "heads", stamped "headsTx"), left stale: it stamps tx, not chunksTx.
// This strata stamps no headsTx, so such a strata rebuilds its own heads
// in turn when it next opens the file.
var indexBucket = []byte("_index")

var (
	indexRunning  = []byte("running")
	indexGood     = []byte("good")
	indexTx       = []byte("tx")
	indexChunks   = []byte("chunks")
	indexChunksTx = []byte("chunksTx")
	indexID       = []byte("id")
)

// errIndexKey is a key of the running index that does not decode.
var errIndexKey = errors.New("malformed index key")

// stackID is the index's key of a stack: client, env and stack, each
// preceded by its length as a uvarint, so that no two stacks share a key
// and a running key decodes back to its stack and number.
func stackID(client, env, stack string) []byte {
	b := make([]byte, 0, len(client)+len(env)+len(stack)+3*binary.MaxVarintLen16+8)
	for _, s := range []string{client, env, stack} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

// runningKey is the running index's key of run number n of a stack.
func runningKey(client, env, stack string, n int) []byte {
	return append(stackID(client, env, stack), key(n)...)
}

// parseRunningKey reads a key of the running index back.
func parseRunningKey(k []byte) (client, env, stack string, n int, err error) {
	parts, rest, err := splitStackID(k)
	if err != nil || len(rest) != 8 {
		return "", "", "", 0, fmt.Errorf("%w %q", errIndexKey, k)
	}
	return parts[0], parts[1], parts[2], keyNumber(rest), nil
}

// splitStackID reads the client, env and stack of a key that begins with
// a stackID, and returns what follows it.
func splitStackID(k []byte) (parts [3]string, rest []byte, err error) {
	rest = k
	var canonical [binary.MaxVarintLen64]byte
	for i := range parts {
		l, w := binary.Uvarint(rest)
		// A length stackID did not write (a varint longer than it need
		// be) is no key of strata's, whose parts would not give it back.
		if w <= 0 || w != len(binary.AppendUvarint(canonical[:0], l)) || l > uint64(len(rest)-w) {
			return parts, nil, fmt.Errorf("%w %q", errIndexKey, k)
		}
		parts[i] = string(rest[w : w+int(l)])
		rest = rest[w+int(l):]
	}
	return parts, rest, nil
}

// envPrefix is what the stackIDs of an environment's stacks begin with.
func envPrefix(client, env string) []byte {
	id := stackID(client, env, "")
	return id[:len(id)-1] // the empty stack's length, 0
}

// index returns the index's bucket and its running and good buckets,
// creating them.
func index(tx *bolt.Tx) (ib, running, good *bolt.Bucket, err error) {
	if ib, err = tx.CreateBucketIfNotExists(indexBucket); err != nil {
		return nil, nil, nil, err
	}
	if running, err = ib.CreateBucketIfNotExists(indexRunning); err != nil {
		return nil, nil, nil, err
	}
	if good, err = ib.CreateBucketIfNotExists(indexGood); err != nil {
		return nil, nil, nil, err
	}
	return ib, running, good, nil
}

// indexed reports whether the file's index is current: the last write
// transaction kept it.
func indexed(tx *bolt.Tx) bool {
	ib := tx.Bucket(indexBucket)
	if ib == nil {
		return false
	}
	stamp := ib.Get(indexTx)
	return len(stamp) == 8 && keyNumber(stamp) == tx.ID()
}

// headsCurrent reports whether the file's heads are current: the last
// write transaction kept them.
func headsCurrent(tx *bolt.Tx) bool {
	ib := tx.Bucket(indexBucket)
	if ib == nil {
		return false
	}
	stamp := ib.Get(indexChunksTx)
	return len(stamp) == 8 && keyNumber(stamp) == tx.ID()
}

// stamp records that the write transaction tx kept the index and the
// heads.
func stamp(tx *bolt.Tx) error {
	ib, err := tx.CreateBucketIfNotExists(indexBucket)
	if err != nil {
		return err
	}
	if err := ib.Put(indexTx, key(tx.ID())); err != nil {
		return err
	}
	return ib.Put(indexChunksTx, key(tx.ID()))
}

// indexRun keeps the index of r, which the transaction has just stored:
// a running run is in the running index and any other is not, and a good
// run newer than the stack's last good one is the last good one. A run
// that was the last good one and is no longer good (overwritten) hands
// that over to the stack's newest good run before it.
func indexRun(tx *bolt.Tx, sb *bolt.Bucket, r Run) error {
	_, running, good, err := index(tx)
	if err != nil {
		return err
	}
	rk := runningKey(r.Client, r.Env, r.Stack, r.Number)
	if r.Result == ResultRunning {
		err = running.Put(rk, nil)
	} else {
		err = running.Delete(rk)
	}
	if err != nil {
		return err
	}
	id := stackID(r.Client, r.Env, r.Stack)
	last := keyNumber(good.Get(id))
	switch {
	case r.Good() && r.Number > last:
		err = good.Put(id, key(r.Number))
	case !r.Good() && r.Number == last:
		var n int
		if n, err = lastGoodBefore(sb, r.Number); err != nil {
			return err
		}
		if n == 0 {
			err = good.Delete(id)
		} else {
			err = good.Put(id, key(n))
		}
	}
	if err != nil {
		return err
	}
	return keepHead(tx, sb, r, keyNumber(good.Get(id)))
}

// lastGoodBefore is the number of the stack's newest good run before run
// number before, 0 when there is none. It reads the runs back from there,
// each only as far as its operation and result.
func lastGoodBefore(sb *bolt.Bucket, before int) (int, error) {
	c := sb.Cursor()
	k, v := c.Seek(key(before))
	if k == nil {
		k, v = c.Last()
	}
	for ; k != nil; k, v = c.Prev() {
		n := keyNumber(k)
		if n >= before {
			continue
		}
		o, err := decodeOutcome(k, v)
		if err != nil {
			return 0, err
		}
		if o.good() {
			return n, nil
		}
	}
	return 0, nil
}

// outcome is what the index needs of a stored run: how it ended.
type outcome struct {
	Operation Operation `json:"operation"`
	Result    Result    `json:"result"`
}

func (o outcome) good() bool { return Run{Operation: o.Operation, Result: o.Result}.Good() }

// decodeOutcome reads a stored run's operation and result only.
func decodeOutcome(k, v []byte) (outcome, error) {
	var o outcome
	if err := json.Unmarshal(v, &o); err != nil {
		return outcome{}, fmt.Errorf("decode run #%d: %w", keyNumber(k), err)
	}
	return o, nil
}
