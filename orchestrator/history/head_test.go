package history

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	bolt "go.etcd.io/bbolt"
)

// runsHead is the stack's head as its runs say: Last, LastMatching (not
// an unlock) and LastGood, as HeadOf makes them.
func runsHead(t *testing.T, s *Store, client, env, stack string) Head {
	t.Helper()
	ctx := context.Background()
	last, _, err := s.Last(ctx, client, env, stack)
	if err != nil {
		t.Fatal(err)
	}
	ran, _, err := s.LastMatching(ctx, client, env, stack, func(r Run) bool { return r.Operation != OperationUnlock })
	if err != nil {
		t.Fatal(err)
	}
	good, _, err := s.LastGood(ctx, client, env, stack)
	if err != nil {
		t.Fatal(err)
	}
	return HeadOf(last, ran, good)
}

// checkHead checks that the stack's stored head is what its runs say, and
// names runs last, ran and good (by number, 0 for none).
func checkHead(t *testing.T, s *Store, step, stack string, last, ran, good int) {
	t.Helper()
	got, err := s.Head(context.Background(), "acme", "dev", stack)
	if err != nil {
		t.Fatalf("%s: Head(%s) = %v, want nil", step, stack, err)
	}
	if diff := cmp.Diff(runsHead(t, s, "acme", "dev", stack), got); diff != "" {
		t.Errorf("%s: Head(%s) mismatch with the runs (-runs +head):\n%s", step, stack, diff)
	}
	if got.Last.Number != last || got.Ran.Number != ran || got.Good.Number != good {
		t.Errorf("%s: Head(%s) = last #%d, ran #%d, good #%d, want #%d, #%d, #%d",
			step, stack, got.Last.Number, got.Ran.Number, got.Good.Number, last, ran, good)
	}
}

// TestHeadFollowsRuns records every kind of run a reconcile leaves, and
// after each checks that the stack's head is what Last, LastMatching and
// LastGood return.
func TestHeadFollowsRuns(t *testing.T) {
	s, path := open(t)
	ctx := context.Background()
	at := time.Date(2026, 11, 30, 9, 0, 0, 123456789, time.UTC)
	run := func(op Operation, cause string) Run {
		t.Helper()
		r, err := s.Begin(ctx, Run{
			Client: "acme", Env: "dev", Stack: "network", Operation: op, Cause: cause,
			FromVersion: "1.0.0", ToVersion: "1.1.0", Digest: "sha256:aa", Fingerprint: "hmac-sha256:ff",
			Inputs: map[string]string{"cidr": "0a1b"}, Upstreams: map[string]string{"account": "2c3d"},
			Spec: map[string]string{"targets": "4e5f"}, Hashes: "hmac-sha256/k1",
			PlanID: "plan-1", Summary: Summary{Add: 1}, StartedAt: at,
			DestroyResourcesOnDeletion: true,
		})
		if err != nil {
			t.Fatalf("Begin(network) = %v", err)
		}
		return r
	}
	end := func(r Run, result Result, errMsg string) Run {
		t.Helper()
		r.Result, r.Error, r.Duration = result, errMsg, 1234567*time.Microsecond
		if result == ResultApplied || result == ResultNoChanges {
			r.StateSerial, r.StateLineage, r.Contract = 7, "lineage-1", "contracts/acme/dev/network.json"
		}
		return finish(t, s, r, result)
	}
	var held, applied Run
	steps := []struct {
		name            string
		do              func()
		last, ran, good int
	}{
		{"no run", func() {}, 0, 0, 0},
		{"an apply running", func() { run(OperationApply, "install") }, 1, 1, 0},
		{"the apply applied", func() {
			end(Run{Client: "acme", Env: "dev", Stack: "network", Number: 1, Operation: OperationApply, Cause: "install", StartedAt: at}, ResultApplied, "")
		}, 1, 1, 1},
		{"a drift check without changes", func() { end(run(OperationPlan, ""), ResultNoChanges, "") }, 2, 2, 1},
		{"an apply failed", func() { end(run(OperationApply, "config"), ResultFailed, "tofu apply: exit status 1") }, 3, 3, 1},
		{"a plan held for approval", func() { held = end(run(OperationApply, "config"), ResultHeld, "plan-1 waits for approval") }, 4, 4, 1},
		{"a person's unlock", func() { end(run(OperationUnlock, ""), ResultUnlocked, "") }, 5, 4, 1},
		{"the held plan applied, after the unlock", func() { applied = end(held, ResultApplied, "") }, 5, 4, 4},
		{"an apply interrupted", func() { end(run(OperationApply, "drift"), ResultInterrupted, "run interrupted") }, 6, 6, 4},
		{"an apply left running, marked interrupted by the next writer", func() {
			run(OperationApply, "drift")
			s.Close()
			var err error
			if s, err = Open(ctx, path); err != nil {
				t.Fatal(err)
			}
		}, 7, 7, 4},
		{"the last good apply overwritten failed hands back", func() { end(applied, ResultFailed, "adopted: failed") }, 7, 7, 1},
		{"a waiting run", func() { end(run(OperationApply, ""), ResultWaiting, "waiting for contract x") }, 8, 8, 1},
		{"destroyed (spec.destroy)", func() { end(run(OperationApply, "destroy"), ResultApplied, "") }, 9, 9, 9},
		{"removed", func() { end(run(OperationApply, "removed"), ResultApplied, "") }, 10, 10, 10},
		{"orphaned", func() { end(run(OperationApply, "removed"), ResultOrphaned, "") }, 11, 11, 10},
		{"an unlock left running", func() { run(OperationUnlock, "") }, 12, 11, 10},
	}
	for _, st := range steps {
		st.do()
		checkHead(t, s, st.name, "network", st.last, st.ran, st.good)
	}
	t.Cleanup(func() { s.Close() })

	// What a Head keeps of each run.
	h, err := s.Head(ctx, "acme", "dev", "network")
	if err != nil {
		t.Fatal(err)
	}
	wantLast := Run{
		Number: 12, Client: "acme", Env: "dev", Stack: "network", Operation: OperationUnlock,
		Result: ResultRunning, ToVersion: "1.1.0", Digest: "sha256:aa", StartedAt: at,
	}
	wantRan := Run{
		Number: 11, Client: "acme", Env: "dev", Stack: "network", Operation: OperationApply,
		Cause: "removed", Result: ResultOrphaned, ToVersion: "1.1.0", Digest: "sha256:aa", StartedAt: at, Duration: 1234 * time.Millisecond,
	}
	if diff := cmp.Diff(wantLast, h.Last); diff != "" {
		t.Errorf("Head(network).Last mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantRan, h.Ran); diff != "" {
		t.Errorf("Head(network).Ran mismatch (-want +got):\n%s", diff)
	}
	want := Run{
		Number: 10, Client: "acme", Env: "dev", Stack: "network", Operation: OperationApply, Cause: "removed",
		ToVersion: "1.1.0", Digest: "sha256:aa", Fingerprint: "hmac-sha256:ff",
		Inputs: map[string]string{"cidr": "0a1b"}, Upstreams: map[string]string{"account": "2c3d"},
		Spec: map[string]string{"targets": "4e5f"}, Hashes: "hmac-sha256/k1",
		Result: ResultApplied, Contract: "contracts/acme/dev/network.json", StartedAt: at,
		StateSerial: 7, StateLineage: "lineage-1", DestroyResourcesOnDeletion: true,
	}
	if diff := cmp.Diff(want, h.Good); diff != "" {
		t.Errorf("Head(network).Good mismatch (-want +got):\n%s", diff)
	}
}

// TestHeadOtherStacks checks that a stack's head is its own: stacks whose
// names join to the same string, and a stack with no run.
func TestHeadOtherStacks(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	one := finish(t, s, begin(t, s, "ab", "c", "d"), ResultApplied)
	two := finish(t, s, begin(t, s, "a", "bc", "d"), ResultFailed)
	for _, tt := range []struct {
		client, env, stack string
		want               Head
	}{
		{"ab", "c", "d", HeadOf(one, one, one)},
		{"a", "bc", "d", HeadOf(two, two, Run{})},
		{"acme", "dev", "none", Head{}},
	} {
		got, err := s.Head(ctx, tt.client, tt.env, tt.stack)
		if err != nil {
			t.Fatalf("Head(%s/%s/%s) = %v", tt.client, tt.env, tt.stack, err)
		}
		// The stored runs have their JSON's precision: compare numbers
		// and results.
		if got.Last.Number != tt.want.Last.Number || got.Good.Number != tt.want.Good.Number || got.Last.Result != tt.want.Last.Result ||
			got.Last.Client != tt.want.Last.Client || got.Last.Env != tt.want.Last.Env {
			t.Errorf("Head(%s/%s/%s) = %+v, want %+v", tt.client, tt.env, tt.stack, got, tt.want)
		}
	}
	if _, err := s.Head(canceled(), "acme", "dev", "network"); !errors.Is(err, context.Canceled) {
		t.Errorf("Head(cancelled) = %v, want context.Canceled", err)
	}
}

func canceled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

func TestHeadEncoding(t *testing.T) {
	at := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	good := Run{Number: 3, Client: "acme", Env: "dev", Stack: "network", Operation: OperationApply, Result: ResultApplied,
		ToVersion: "1.0.0", Digest: "sha256:aa", Inputs: map[string]string{"a": "b"}, StartedAt: at, Duration: time.Second, StateSerial: 4}
	plan := Run{Number: 5, Client: "acme", Env: "dev", Stack: "network", Operation: OperationPlan, Result: ResultFailed,
		Error: "boom", Interrupted: []string{"aws_vpc.main"}, StartedAt: at.Add(time.Hour)}
	unlock := Run{Number: 6, Client: "acme", Env: "dev", Stack: "network", Operation: OperationUnlock, Result: ResultUnlocked, StartedAt: at.Add(2 * time.Hour)}
	for _, tt := range []struct {
		name string
		h    Head
		runs int
	}{
		{"empty", Head{}, 0},
		{"one run is all three", HeadOf(good, good, good), 1},
		{"a plan after the good apply", HeadOf(plan, plan, good), 2},
		{"an unlock after them", HeadOf(unlock, plan, good), 3},
		{"no good run", HeadOf(plan, plan, Run{}), 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v, err := encodeHead(tt.h)
			if err != nil {
				t.Fatalf("encodeHead(%+v) = %v", tt.h, err)
			}
			got, err := decodeHead("acme", "dev", "network", v)
			if err != nil {
				t.Fatalf("decodeHead(%s) = %v", v, err)
			}
			if diff := cmp.Diff(tt.h, got); diff != "" {
				t.Errorf("decodeHead(encodeHead(h)) mismatch (-want +got):\n%s", diff)
			}
			if n := countRuns(t, v); n != tt.runs {
				t.Errorf("encodeHead(%s) stores %d runs, want %d: each once", tt.name, n, tt.runs)
			}
		})
	}
	for _, bad := range []string{"", "{", `{"r":[],"l":2}`, `{"r":[{"n":1}],"g":3}`, `[]`} {
		if _, err := decodeHead("acme", "dev", "network", []byte(bad)); !errors.Is(err, errHead) {
			t.Errorf("decodeHead(%q) = %v, want errHead", bad, err)
		}
	}
}

func countRuns(t *testing.T, v []byte) int {
	t.Helper()
	h, err := decodeHead("acme", "dev", "network", v)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, r := range []Run{h.Last, h.Ran, h.Good} {
		if r.Number > 0 {
			seen[r.Number] = true
		}
	}
	// The stored runs are the distinct ones: as many as the numbers.
	var j struct {
		Runs []struct{} `json:"r"`
	}
	if err := json.Unmarshal(v, &j); err != nil {
		t.Fatal(err)
	}
	if len(j.Runs) != len(seen) {
		t.Errorf("head %s stores %d runs for %d distinct ones", v, len(j.Runs), len(seen))
	}
	return len(j.Runs)
}

func FuzzDecodeHead(f *testing.F) {
	at := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	r := Run{Number: 2, Client: "acme", Env: "dev", Stack: "network", Operation: OperationApply, Result: ResultApplied, StartedAt: at}
	v, err := encodeHead(HeadOf(r, r, r))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(v)
	f.Add([]byte(`{"r":[{"n":1,"t":"2026-11-30T09:00:00Z"}],"l":1}`))
	f.Fuzz(func(t *testing.T, v []byte) {
		h, err := decodeHead("acme", "dev", "network", v)
		if err != nil {
			if !errors.Is(err, errHead) {
				t.Errorf("decodeHead(%q) = %v, want errHead", v, err)
			}
			return
		}
		again, err := encodeHead(h)
		if err != nil {
			t.Fatalf("encodeHead(decodeHead(%q)) = %v", v, err)
		}
		back, err := decodeHead("acme", "dev", "network", again)
		if err != nil || !cmp.Equal(h, back) {
			t.Errorf("decodeHead(encodeHead(decodeHead(%q))) = %+v, %v, want %+v", v, back, err, h)
		}
	})
}

// TestOpenBeforeHeads opens histories that a strata without the heads in
// chunks wrote: one without the index (testdata/before-index.db), and
// ones whose index a strata that kept it, but no heads or the heads in
// their first layout, kept last. A reader reads the heads from the runs;
// the next writer builds them once, from the runs, and drops the first
// layout's.
func TestOpenBeforeHeads(t *testing.T) {
	ctx := context.Background()
	olderWriter := func(firstLayout bool) func(t *testing.T) string {
		return func(t *testing.T) string { return afterIndex(t, firstLayout) }
	}
	tests := []struct {
		name   string
		path   func(t *testing.T) string
		stacks map[string][3]int
	}{
		{"before the index", beforeIndex, map[string][3]int{"network": {6, 6, 2}, "api": {1, 1, 0}, "db": {1, 1, 0}, "none": {}}},
		{"after the index, before the heads", olderWriter(false), map[string][3]int{"network": {3, 3, 3}, "none": {}}},
		{"heads in their first layout", olderWriter(true), map[string][3]int{"network": {3, 3, 3}, "none": {}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.path(t)
			r, err := Open(ctx, path, ReadOnly())
			if err != nil {
				t.Fatal(err)
			}
			if r.heads {
				t.Errorf("Open(%q, ReadOnly).heads = true, want false: no writer kept them last", path)
			}
			for stack, n := range tt.stacks {
				checkHead(t, r, "a reader", stack, n[0], n[1], n[2])
			}
			stacks, err := r.Stacks(ctx, "acme", "dev")
			if err != nil {
				t.Fatal(err)
			}
			r.Close()

			s, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			for stack, n := range tt.stacks {
				checkHead(t, s, "the writer", stack, n[0], n[1], n[2])
				if _, ok, err := s.storedHead("acme", "dev", stack); err != nil || !ok {
					t.Errorf("storedHead(%s) after the writer's Open = %v, %v, want the stored head", stack, ok, err)
				}
			}
			if got, err := s.Stacks(ctx, "acme", "dev"); err != nil || !cmp.Equal(got, stacks) {
				t.Errorf("Stacks(acme/dev) from the heads = %v, %v, want %v, as the reader listed them", got, err, stacks)
			}
			if err := s.view(func(tx *bolt.Tx) error {
				if tx.Bucket(indexBucket).Bucket([]byte("heads")) != nil {
					t.Errorf("Open(%q) kept the heads' first layout, want it dropped", path)
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			id := txID(t, s)
			s.Close()

			s, err = Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if got := txID(t, s); got != id {
				t.Errorf("Open(%q) again wrote transaction %d, want none after %d: the heads are built once", path, got, id)
			}
			r, err = Open(ctx, path, ReadOnly())
			if err == nil {
				defer r.Close()
			}
			// The writer holds the file: the reader reads its snapshot,
			// made with the heads.
			if err != nil || !r.heads {
				t.Errorf("Open(%q, ReadOnly) after the writer = heads %v, %v, want the heads", path, r != nil && r.heads, err)
			}
		})
	}
}

// TestHeadDamaged stores a head that does not decode: Head reads the
// stack's runs instead, and the next run stored makes the head anew.
func TestHeadDamaged(t *testing.T) {
	s, _ := open(t)
	finish(t, s, begin(t, s, "acme", "dev", "network"), ResultApplied) // #1
	finish(t, s, begin(t, s, "acme", "dev", "network"), ResultFailed)  // #2
	if err := s.update(func(tx *bolt.Tx) error {
		cb := tx.Bucket(indexBucket).Bucket(indexChunks)
		k, v, _ := chunkOf(cb, "acme", "dev", "network")
		entries, err := decodeChunk(k, v)
		if err != nil {
			return err
		}
		return putChunk(cb, "acme", "dev", k, withHead(entries, "network", []byte(`{"r":[],"l":9}`)), "network")
	}); err != nil {
		t.Fatal(err)
	}
	checkHead(t, s, "a damaged head", "network", 2, 2, 1)
	if _, ok, err := s.storedHead("acme", "dev", "network"); ok || err != nil {
		t.Errorf("storedHead(network) of a damaged head = %v, %v, want false, nil", ok, err)
	}
	finish(t, s, begin(t, s, "acme", "dev", "network"), ResultPlanned) // #3
	if _, ok, err := s.storedHead("acme", "dev", "network"); !ok || err != nil {
		t.Errorf("storedHead(network) after a run = %v, %v, want the head made anew", ok, err)
	}
	checkHead(t, s, "the head made anew", "network", 3, 3, 1)
}

// afterIndex writes a file with this strata, and then as a strata that
// kept the index, and the heads under a key each (firstLayout) or none,
// would: a run stored, the index kept and stamped, as it stamped them.
func afterIndex(t *testing.T, firstLayout bool) string {
	t.Helper()
	s, path := open(t)
	finish(t, s, begin(t, s, "acme", "dev", "network"), ResultApplied) // #1
	finish(t, s, begin(t, s, "acme", "dev", "network"), ResultPlanned) // #2
	s.Close()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		b := stackBucket(tx, "acme", "dev", "network")
		r := Run{Number: 3, Client: "acme", Env: "dev", Stack: "network", Operation: OperationApply, Result: ResultNoChanges}
		if err := putRun(b, r); err != nil {
			return err
		}
		ib := tx.Bucket(indexBucket)
		id := stackID("acme", "dev", "network")
		if err := ib.Bucket(indexGood).Put(id, key(3)); err != nil {
			return err
		}
		if firstLayout {
			hb, err := ib.CreateBucketIfNotExists([]byte("heads"))
			if err != nil {
				return err
			}
			v, err := encodeHead(HeadOf(r, r, r))
			if err != nil {
				return err
			}
			if err := hb.Put(id, v); err != nil {
				return err
			}
			if err := ib.Put([]byte("headsTx"), key(tx.ID())); err != nil {
				return err
			}
		}
		return ib.Put(indexTx, key(tx.ID()))
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}
