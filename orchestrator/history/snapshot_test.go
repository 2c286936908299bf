package history

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

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
