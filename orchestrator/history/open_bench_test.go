package history

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// benchStacks is how many stacks the benchmarks' histories hold.
const benchStacks = 100

// benchHistory writes a history of runs runs over benchStacks stacks of
// acme/dev (see benchHistoryOf).
func benchHistory(b *testing.B, runs int) string {
	b.Helper()
	return benchHistoryOf(b, benchStacks, runs)
}

// benchHistoryOf writes a history of runs runs over stacks stacks of
// acme/dev, as a reconcile loop leaves it: each stack's first run an
// apply, then drift checks (plans) and now and then an apply, all ended.
// It is opened once, so that its index is built.
func benchHistoryOf(b *testing.B, stacks, runs int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "history.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	const batch = 1000
	for done := 0; done < runs; done += batch {
		if err := s.update(func(tx *bolt.Tx) error {
			for i := done; i < min(done+batch, runs); i++ {
				stack := fmt.Sprintf("stack-%04d", i%stacks)
				sb, err := createStackBucket(tx, "acme", "dev", stack)
				if err != nil {
					return err
				}
				r := Run{
					Number: i/stacks + 1, Client: "acme", Env: "dev", Stack: stack,
					Operation: OperationPlan, Result: ResultNoChanges, Cause: "drift",
					ToVersion: "1.4.2", Digest: "sha256:5e0e1a4c8e2f9c6d7b3a1f0e9d8c7b6a5f4e3d2c1b0a99887766554433221100",
					Fingerprint: "hmac-sha256:4b1d", StartedAt: at.Add(time.Duration(i) * time.Second),
					Inputs:   map[string]string{"cidr": "0a1b2c3d", "name": "4e5f6a7b", "region": "8c9d0e1f"},
					Duration: 2 * time.Second,
				}
				if r.Number%10 == 1 {
					r.Operation, r.Result = OperationApply, ResultApplied
				}
				if err := putRun(sb, r); err != nil {
					return err
				}
				if err := indexRun(tx, sb, r); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkOpen opens and closes a history, as every reconcile does, with
// nothing left running: its cost must not grow with the runs the file
// holds.
func BenchmarkOpen(b *testing.B) {
	for _, runs := range []int{1_000, 20_000} {
		b.Run(fmt.Sprintf("runs=%d", runs), func(b *testing.B) {
			path := benchHistory(b, runs)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				s, err := Open(ctx, path)
				if err != nil {
					b.Fatal(err)
				}
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLastGood reads each stack's last good run, as a reconcile does
// for every stack: its cost must not grow with the stack's runs since.
func BenchmarkLastGood(b *testing.B) {
	for _, runs := range []int{1_000, 20_000} {
		b.Run(fmt.Sprintf("runs=%d", runs), func(b *testing.B) {
			path := benchHistory(b, runs)
			ctx := context.Background()
			s, err := Open(ctx, path)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				stack := fmt.Sprintf("stack-%04d", i%benchStacks)
				if _, ok, err := s.LastGood(ctx, "acme", "dev", stack); err != nil || !ok {
					b.Fatalf("LastGood(%s) = %v, %v", stack, ok, err)
				}
				i++
			}
		})
	}
}
