package history

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// layoutStacks and layoutRounds are how many stacks and how many
// reconciles TestHeadsLieTogether writes.
const (
	layoutStacks = 1_000
	layoutRounds = 3
)

// writeReconciles writes rounds reconciles of stacks stacks of acme/dev
// as a reconcile writes them: stack by stack, each run begun and recorded
// in transactions of their own, and another bucket written between
// stacks. After each run begun or recorded it keeps the stack's head under
// a key of its own in the bucket "heads" of the index too, in a
// transaction of its own, as the heads' first layout did, so that both
// layouts see the same writes.
func writeReconciles(tb testing.TB, s *Store, stacks, rounds int) {
	tb.Helper()
	ctx := context.Background()
	s.db.NoSync = true // the file's layout is the same
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	keyPerHead := func(r Run) func(tx *bolt.Tx) error {
		return func(tx *bolt.Tx) error {
			hb, err := tx.Bucket(indexBucket).CreateBucketIfNotExists([]byte("heads"))
			if err != nil {
				return err
			}
			hb.FillPercent = headsFill
			cb := tx.Bucket(indexBucket).Bucket(indexChunks)
			k, v, _ := chunkOf(cb, r.Client, r.Env, r.Stack)
			entries, err := decodeChunk(k, v)
			if err != nil {
				return err
			}
			return hb.Put(stackID(r.Client, r.Env, r.Stack), chunkHead(entries, r.Stack))
		}
	}
	for round := range rounds {
		for i := range stacks {
			stack := fmt.Sprintf("stack-%04d", i)
			r := Run{
				Client: "acme", Env: "dev", Stack: stack, Operation: OperationPlan, Cause: "drift",
				ToVersion: "1.4.2", Digest: "sha256:5e0e1a4c8e2f9c6d7b3a1f0e9d8c7b6a5f4e3d2c1b0a99887766554433221100",
				Fingerprint: "hmac-sha256:4b1d9c0e", StartedAt: at.Add(time.Duration(round*stacks+i) * time.Second),
				Inputs:   map[string]string{"cidr": "0a1b2c3d4e5f60718293a4b5c6d7e8f9", "name": "4e5f6a7b8c9d0e1f2a3b4c5d6e7f8091", "region": "8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5"},
				Spec:     map[string]string{"vars": "9f8e7d6c5b4a39281706f5e4d3c2b1a0", "backend": "0f1e2d3c4b5a69788796a5b4c3d2e1f0"},
				Duration: 2 * time.Second,
			}
			if round == 0 {
				r.Operation, r.Cause = OperationApply, "new"
			}
			var err error
			if r, err = s.Begin(ctx, r); err != nil {
				tb.Fatal(err)
			}
			if err := s.update(keyPerHead(r)); err != nil {
				tb.Fatal(err)
			}
			r.Result = ResultNoChanges
			if round == 0 {
				r.Result = ResultApplied
			}
			if err := s.Record(ctx, r); err != nil {
				tb.Fatal(err)
			}
			if err := s.update(keyPerHead(r)); err != nil {
				tb.Fatal(err)
			}
			if err := s.update(func(tx *bolt.Tx) error {
				b, err := tx.CreateBucketIfNotExists([]byte("_scratch"))
				if err != nil {
					return err
				}
				return b.Put(key(round*stacks+i), make([]byte, 300))
			}); err != nil {
				tb.Fatal(err)
			}
		}
	}
}

// pageSpan is what reading every key of a bucket touches of the file:
// how many pages, and in how many distinct 64 KiB windows of the file
// they lie (the kernel maps the pages around each page read, 64 KiB by
// default).
type pageSpan struct {
	Pages, Windows int
}

// bucketSpan walks the pages of the tree of the bucket whose root page is
// root in the file at path, as bbolt lays them out: a page begins with
// its id (8 bytes), flags (2), count (2) and overflow (4); a branch
// page's elements (16 bytes each) end with their child's page id.
func bucketSpan(tb testing.TB, path string, pageSize int, root uint64) pageSpan {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	pages, windows := map[uint64]bool{}, map[uint64]bool{}
	var walk func(id uint64)
	walk = func(id uint64) {
		p := data[int(id)*pageSize:]
		flags, count, overflow := binary.LittleEndian.Uint16(p[8:]), binary.LittleEndian.Uint16(p[10:]), binary.LittleEndian.Uint32(p[12:])
		for i := id; i <= id+uint64(overflow); i++ {
			pages[i] = true
			windows[i*uint64(pageSize)/(64<<10)] = true
		}
		if flags&0x01 == 0 { // a leaf
			return
		}
		for e := range int(count) {
			walk(binary.LittleEndian.Uint64(p[16+16*e+8:]))
		}
	}
	walk(root)
	return pageSpan{Pages: len(pages), Windows: len(windows)}
}

// headsSpans is what reading every head touches, in chunks and under a
// key each.
func headsSpans(tb testing.TB, s *Store) (chunked, keyPerHead pageSpan) {
	tb.Helper()
	var roots [2]uint64
	if err := s.view(func(tx *bolt.Tx) error {
		ib := tx.Bucket(indexBucket)
		roots[0], roots[1] = uint64(ib.Bucket(indexChunks).Root()), uint64(ib.Bucket([]byte("heads")).Root())
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	size := s.db.Info().PageSize
	return bucketSpan(tb, s.path, size, roots[0]), bucketSpan(tb, s.path, size, roots[1])
}

// TestHeadsLieTogether writes the heads of 1,000 stacks over three
// reconciles, a transaction per run begun or recorded and others in
// between, and checks that every head is right and that reading all of
// them touches a few stretches of the file: at most half the 64 KiB
// windows that reading them under a key each (the heads' first layout,
// kept alongside) touches.
func TestHeadsLieTogether(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 9,000 transactions")
	}
	s, _ := open(t)
	writeReconciles(t, s, layoutStacks, layoutRounds)
	stacks, err := s.Stacks(context.Background(), "acme", "dev")
	if err != nil || len(stacks) != layoutStacks {
		t.Fatalf("Stacks(acme/dev) = %d stacks, %v, want %d", len(stacks), err, layoutStacks)
	}
	for _, stack := range stacks {
		checkHead(t, s, "after the reconciles", stack, layoutRounds, layoutRounds, 1)
	}
	chunked, keyPerHead := headsSpans(t, s)
	t.Logf("reading every head: chunked %+v, a key per head %+v", chunked, keyPerHead)
	if chunked.Windows*2 > keyPerHead.Windows {
		t.Errorf("reading every head touches %d windows of 64 KiB, want at most half of %d, a key per head's", chunked.Windows, keyPerHead.Windows)
	}
}

// BenchmarkHeadsLayout reports what reading every head of 1,000 stacks
// touches after a reconcile of each, then after ten: pages and distinct
// 64 KiB windows of the file, in chunks and under a key each (the heads'
// first layout).
func BenchmarkHeadsLayout(b *testing.B) {
	for _, rounds := range []int{1, 10} {
		b.Run(fmt.Sprintf("reconciles=%d", rounds), func(b *testing.B) {
			// The file is written once, before the loop: what is timed is
			// the walk over every head's pages. (A loop that stops the timer
			// around the writes never reaches b.Loop's second of timed work:
			// it wrote files until go test's timeout.)
			s, err := Open(context.Background(), b.TempDir()+"/history.db")
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			writeReconciles(b, s, layoutStacks, rounds)
			var chunked, keyPerHead pageSpan
			for b.Loop() {
				chunked, keyPerHead = headsSpans(b, s)
			}
			b.ReportMetric(float64(chunked.Pages), "chunk-pages")
			b.ReportMetric(float64(chunked.Windows), "chunk-windows")
			b.ReportMetric(float64(keyPerHead.Pages), "key-pages")
			b.ReportMetric(float64(keyPerHead.Windows), "key-windows")
		})
	}
}
