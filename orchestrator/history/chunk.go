package history

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// The heads lie in chunks (see indexBucket): each chunk holds the heads
// of a range of an environment's stacks, in the order of their stackIDs,
// under the stackID of its first stack; a stack's head is in the chunk
// with the greatest key not after the stack's stackID. A chunk is one
// bbolt value, and a value larger than a page lies on pages that bbolt
// allocates together: reading every head of an environment reads a few
// contiguous stretches of the file, whatever transactions wrote them,
// where a key per head put each head's page wherever bbolt's freelist
// had room when its stack last ran.

// chunkMax is how large a chunk grows before it is split in two. A
// transaction that keeps a head rewrites the bbolt node that holds its
// chunk, and bbolt puts two keys at least in a node: at most 2×chunkMax
// and a little. Larger chunks would lie on fewer stretches of the file
// (BenchmarkHeadsLayout: 32 KiB touches 17 windows of 64 KiB where 16
// KiB touches 21, at 1,000 stacks) for twice the writing.
const chunkMax = 16 << 10

// chunkPack is how full a rebuild packs a chunk, leaving room for its
// heads to change.
const chunkPack = chunkMax * 3 / 4

// errChunk is a stored chunk that does not decode: the runs say what its
// heads should be.
var errChunk = errors.New("malformed chunk of heads")

// chunkEntry is one stack's head in a chunk: its name and its head as
// encodeHead writes it.
type chunkEntry struct {
	stack string
	head  []byte
}

// encodeChunk writes the entries, each as its name and its head, each
// preceded by its length as a uvarint.
func encodeChunk(entries []chunkEntry) []byte {
	n := 0
	for _, e := range entries {
		n += len(e.stack) + len(e.head) + 2*binary.MaxVarintLen32
	}
	b := make([]byte, 0, n)
	for _, e := range entries {
		b = binary.AppendUvarint(b, uint64(len(e.stack)))
		b = append(b, e.stack...)
		b = binary.AppendUvarint(b, uint64(len(e.head)))
		b = append(b, e.head...)
	}
	return b
}

// decodeChunk reads a stored chunk whose key is first: its entries, in
// the order of their stackIDs, the first being the key's stack. The
// heads are not copied: they are v's bytes, which bbolt keeps as long as
// the transaction, and the transaction that keeps a head writes them into
// the chunk it stores (keepHead) before it ends.
func decodeChunk(first, v []byte) ([]chunkEntry, error) {
	var entries []chunkEntry
	err := walkChunk(first, v, func(stack, head []byte) {
		entries = append(entries, chunkEntry{string(stack), head})
	})
	if err != nil {
		return nil, err
	}
	return entries, nil
}

// storedChunkHead finds the stack's head in a stored chunk whose key is
// first, without copying it: nil when the chunk holds none.
func storedChunkHead(first, v []byte, stack string) (head []byte, err error) {
	err = walkChunk(first, v, func(s, h []byte) {
		if string(s) == stack {
			head = h
		}
	})
	return head, err
}

// walkChunk calls fn with each entry of a stored chunk whose key is
// first, in order, once it has checked the whole chunk: the entries
// decode, their stacks follow one another in the order of their
// stackIDs, and the first is the key's stack.
func walkChunk(first, v []byte, fn func(stack, head []byte)) error {
	var prev []byte
	for rest := v; len(rest) > 0; {
		stack, r, err := chunkField(rest)
		if err != nil {
			return err
		}
		_, r, err = chunkField(r)
		if err != nil {
			return err
		}
		rest = r
		if len(stack) == 0 || (prev != nil && compareNames(prev, stack) >= 0) {
			return fmt.Errorf("%w: stack %q out of order", errChunk, stack)
		}
		if prev == nil {
			if parts, rest, err := splitStackID(first); err != nil || len(rest) != 0 || parts[2] != string(stack) {
				return fmt.Errorf("%w: key %q is not its first stack %q", errChunk, first, stack)
			}
		}
		prev = stack
	}
	if prev == nil {
		return fmt.Errorf("%w: empty", errChunk)
	}
	for rest := v; len(rest) > 0; {
		stack, r, _ := chunkField(rest)
		head, r, _ := chunkField(r)
		fn(stack, head)
		rest = r
	}
	return nil
}

// chunkField reads a uvarint length and that many bytes.
func chunkField(b []byte) (field, rest []byte, err error) {
	l, w := binary.Uvarint(b)
	if w <= 0 || l > uint64(len(b)-w) {
		return nil, nil, fmt.Errorf("%w: truncated", errChunk)
	}
	return b[w : w+int(l)], b[w+int(l):], nil
}

// compareStacks orders two stacks of an environment as their stackIDs
// sort: by the name's length as a uvarint, then the name.
func compareStacks(a, b string) int {
	return compareNames([]byte(a), []byte(b))
}

// compareNames is compareStacks of names as bytes.
func compareNames(a, b []byte) int {
	var la, lb [binary.MaxVarintLen64]byte
	if c := bytes.Compare(binary.AppendUvarint(la[:0], uint64(len(a))), binary.AppendUvarint(lb[:0], uint64(len(b)))); c != 0 {
		return c
	}
	return bytes.Compare(a, b)
}

// chunkOf finds the chunk that holds, or would hold, the head of the
// stack client/env/stack in the chunks' bucket cb: its key (nil when the
// stack sorts before every chunk of its environment) and value, and the
// key of the environment's next chunk (nil when none).
func chunkOf(cb *bolt.Bucket, client, env, stack string) (k, v, next []byte) {
	id := stackID(client, env, stack)
	prefix := envPrefix(client, env)
	c := cb.Cursor()
	k, v = c.Seek(id)
	if k != nil && bytes.Equal(k, id) {
		if n, _ := c.Next(); n != nil && bytes.HasPrefix(n, prefix) {
			next = n
		}
		return k, v, next
	}
	if k != nil && bytes.HasPrefix(k, prefix) {
		next = k
	}
	if k == nil {
		k, v = c.Last()
	} else {
		k, v = c.Prev()
	}
	if k == nil || !bytes.HasPrefix(k, prefix) {
		return nil, nil, next
	}
	return k, v, next
}

// chunkHead finds the stack's head in its chunk; nil when it has none.
func chunkHead(entries []chunkEntry, stack string) []byte {
	i, ok := slices.BinarySearchFunc(entries, stack, func(e chunkEntry, s string) int { return compareStacks(e.stack, s) })
	if !ok {
		return nil
	}
	return entries[i].head
}

// putChunk stores the entries of an environment's chunk that was stored
// under old (nil: none), in which the head of stack has just changed,
// splitting them while they are larger than chunkMax (see splitChunk).
func putChunk(cb *bolt.Bucket, client, env string, old []byte, entries []chunkEntry, stack string) error {
	parts := splitChunk(entries, stack)
	newFirst := stackID(client, env, parts[0][0].stack)
	if old != nil && !bytes.Equal(old, newFirst) {
		if err := cb.Delete(old); err != nil {
			return err
		}
	}
	for _, p := range parts {
		if err := cb.Put(stackID(client, env, p[0].stack), encodeChunk(p)); err != nil {
			return err
		}
	}
	return nil
}

// splitChunk splits the entries while a part is larger than chunkMax and
// holds more than one head. A stack added last, or first, is split off on
// its own, leaving the rest full, as when stacks are added in order;
// otherwise the entries are halved by size.
func splitChunk(entries []chunkEntry, stack string) [][]chunkEntry {
	size := chunkSize(entries)
	if size <= chunkMax || len(entries) < 2 {
		return [][]chunkEntry{entries}
	}
	switch stack {
	case entries[len(entries)-1].stack:
		return append(splitChunk(entries[:len(entries)-1], ""), entries[len(entries)-1:])
	case entries[0].stack:
		return append([][]chunkEntry{entries[:1]}, splitChunk(entries[1:], "")...)
	}
	i, n := 0, 0
	for ; i < len(entries)-1 && n < size/2; i++ {
		n += len(entries[i].stack) + len(entries[i].head)
	}
	i = max(i, 1)
	return append(splitChunk(entries[:i], ""), splitChunk(entries[i:], "")...)
}

// chunkSize is about the size of the entries' chunk.
func chunkSize(entries []chunkEntry) int {
	n := 0
	for _, e := range entries {
		n += len(e.stack) + len(e.head) + 4
	}
	return n
}

// packChunks stores the heads of every stack of an environment, whose
// chunks cb holds none of, in chunks filled to chunkPack: a rebuild's.
func packChunks(cb *bolt.Bucket, client, env string, entries []chunkEntry) error {
	slices.SortFunc(entries, func(a, b chunkEntry) int { return compareStacks(a.stack, b.stack) })
	for len(entries) > 0 {
		i, n := 0, 0
		for ; i < len(entries) && (i == 0 || n+len(entries[i].stack)+len(entries[i].head)+4 <= chunkPack); i++ {
			n += len(entries[i].stack) + len(entries[i].head) + 4
		}
		if err := cb.Put(stackID(client, env, entries[0].stack), encodeChunk(entries[:i])); err != nil {
			return err
		}
		entries = entries[i:]
	}
	return nil
}
