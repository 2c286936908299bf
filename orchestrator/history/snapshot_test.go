package history

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	bolt "go.etcd.io/bbolt"
)

// TestWriteSnapshotStreams proves that the snapshot is written without a
// copy of the history in memory: a history of several MB is copied with
// far fewer bytes allocated than it holds, so a reconcile's memory does
// not grow with the history.
func TestWriteSnapshotStreams(t *testing.T) {
	s, path := open(t)
	errText := strings.Repeat("x", 4<<10)
	if err := s.update(func(tx *bolt.Tx) error {
		for i := range 1024 {
			b, err := createStackBucket(tx, "client", "env", fmt.Sprintf("stack-%d", i%16))
			if err != nil {
				return err
			}
			r := Run{Number: i + 1, Client: "client", Env: "env", Stack: fmt.Sprintf("stack-%d", i%16),
				Operation: OperationApply, Result: ResultFailed, Error: errText}
			if err := putRun(b, r); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() < 4<<20 {
		t.Fatalf("history %s is %d bytes, want at least 4 MiB for the test to mean anything", path, fi.Size())
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := s.writeSnapshot(); err != nil {
		t.Fatalf("writeSnapshot() = %v, want nil", err)
	}
	runtime.ReadMemStats(&after)
	snap, err := os.Stat(path + SnapshotSuffix)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Size() < 4<<20 {
		t.Errorf("writeSnapshot() wrote %d bytes, want the history's %d", snap.Size(), fi.Size())
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(snap.Size())/4 {
		t.Errorf("writeSnapshot() of a %d-byte history allocated %d bytes, want under a quarter of it", snap.Size(), got)
	}
}

// TestSnapshotKept opens a history again and again: the snapshot is
// copied anew only when the history changed since it was made, or when
// it is not this history's.
func TestSnapshotKept(t *testing.T) {
	ctx := context.Background()
	s, path := open(t)
	finish(t, s, begin(t, s, "acme", "dev", "network"), ResultApplied)
	s.Close()
	other, otherPath := open(t)
	finish(t, other, begin(t, other, "beta", "prod", "api"), ResultApplied)
	other.Close()

	snap := path + SnapshotSuffix
	steps := []struct {
		name string
		// before changes the history, or the snapshot, before the Open.
		before    func(t *testing.T)
		wantFresh bool
	}{
		{"the history changed since the snapshot", func(*testing.T) {}, true},
		{"nothing changed", func(*testing.T) {}, false},
		{"a run was recorded", func(t *testing.T) {
			s, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			finish(t, s, begin(t, s, "acme", "dev", "network"), ResultNoChanges)
		}, true},
		{"nothing changed again", func(*testing.T) {}, false},
		{"the snapshot is another history's", func(t *testing.T) {
			b, err := os.ReadFile(otherPath)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(snap, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"the snapshot is damaged", func(t *testing.T) {
			if err := os.WriteFile(snap, []byte(strings.Repeat("not a database ", 1000)), 0o600); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"the snapshot is gone", func(t *testing.T) {
			if err := os.Remove(snap); err != nil {
				t.Fatal(err)
			}
		}, true},
	}
	for _, st := range steps {
		st.before(t)
		prev, _ := os.Stat(snap)
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("%s: Open(%q) = %v", st.name, path, err)
		}
		s.Close()
		cur, err := os.Stat(snap)
		if err != nil {
			t.Fatalf("%s: Stat(%q) = %v, want a snapshot", st.name, snap, err)
		}
		if fresh := prev == nil || !os.SameFile(prev, cur); fresh != st.wantFresh {
			t.Errorf("%s: Open(%q) copied the snapshot = %v, want %v", st.name, path, fresh, st.wantFresh)
		}
		r, err := openReadOnly(snap)
		if err != nil {
			t.Fatalf("%s: open the snapshot: %v", st.name, err)
		}
		got, ok, err := r.Last(ctx, "acme", "dev", "network")
		r.Close()
		want, _, _ := func() (Run, bool, error) {
			s, err := Open(ctx, path, ReadOnly())
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			return s.Last(ctx, "acme", "dev", "network")
		}()
		if err != nil || !ok || !cmp.Equal(got, want) {
			t.Errorf("%s: the snapshot's Last(network) = %+v, %v, %v, want the history's %+v", st.name, got, ok, err, want)
		}
	}
}
