package history

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	bolt "go.etcd.io/bbolt"
)

// beforeIndex copies testdata/before-index.db, a history that the strata
// before the index wrote and was killed during: acme/dev's network has
// runs #1 applied, #2 no-changes, #3 planned, #4 failed, #5 planned and #6
// left running; api #1 left running with an error already recorded; db #1
// planned.
func beforeIndex(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "before-index.db"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "history.db")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// outcomes is every run of the stacks of acme/dev, as stack #number:
// result (error).
func outcomes(t *testing.T, s *Store, stacks ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, st := range stacks {
		runs, err := s.List(context.Background(), "acme", "dev", st, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runs {
			out[fmt.Sprintf("%s #%d", st, r.Number)] = fmt.Sprintf("%s (%s)", r.Result, r.Error)
		}
	}
	return out
}

// txID is the ID of the file's last write transaction.
func txID(t *testing.T, s *Store) int {
	t.Helper()
	var id int
	if err := s.view(func(tx *bolt.Tx) error { id = tx.ID(); return nil }); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestOpenBeforeIndex opens a history written by a strata that kept no
// index and was killed: its runs left running are interrupted, no run is
// lost, and the index is built, so that LastGood and the next Open read
// it.
func TestOpenBeforeIndex(t *testing.T) {
	ctx := context.Background()
	path := beforeIndex(t)
	want := map[string]string{
		"network #1": "applied ()",
		"network #2": "no-changes ()",
		"network #3": "planned ()",
		"network #4": "failed (tofu apply: exit status 1)",
		"network #5": "planned ()",
		"network #6": "interrupted (" + InterruptedError + ")",
		"api #1":     "interrupted (tofu was killed)",
		"db #1":      "planned ()",
	}

	// A reader before any writer opened it reads the runs as they are,
	// without the index.
	r, err := Open(ctx, path, ReadOnly())
	if err != nil {
		t.Fatalf("Open(%q, ReadOnly) = %v", path, err)
	}
	if r.indexed {
		t.Errorf("Open(%q, ReadOnly).indexed = true for a file without an index, want false", path)
	}
	if got, ok, err := r.LastGood(ctx, "acme", "dev", "network"); err != nil || !ok || got.Number != 2 {
		t.Errorf("LastGood(network) of the file without an index = #%d, %v, %v, want #2", got.Number, ok, err)
	}
	r.Close()

	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open(%q) = %v", path, err)
	}
	if diff := cmp.Diff(want, outcomes(t, s, "network", "api", "db")); diff != "" {
		t.Errorf("runs after Open(%q) mismatch (-want +got):\n%s", path, diff)
	}
	lastGood := map[string]int{"network": 2, "api": 0, "db": 0}
	for stack, n := range lastGood {
		if got, ok, err := s.LastGood(ctx, "acme", "dev", stack); err != nil || ok != (n > 0) || got.Number != n {
			t.Errorf("LastGood(%s) = #%d, %v, %v, want #%d", stack, got.Number, ok, err, n)
		}
	}
	if got, err := s.Claim(ctx, "environments/acme/dev", []string{"identity:acme/dev"}, func(string) bool { return false }); err != nil || len(got) > 0 {
		t.Errorf("Claim(identity:acme/dev) by its owner = %v, %v, want no conflict: the claims are kept", got, err)
	}
	id := txID(t, s)
	s.Close()

	// The next Open finds the index current and nothing running: it
	// writes nothing, and a reader uses the index too.
	s, err = Open(ctx, path)
	if err != nil {
		t.Fatalf("Open(%q) again = %v", path, err)
	}
	if got := txID(t, s); got != id {
		t.Errorf("Open(%q) with nothing running wrote transaction %d, want none after %d", path, got, id)
	}
	if diff := cmp.Diff(want, outcomes(t, s, "network", "api", "db")); diff != "" {
		t.Errorf("runs after Open(%q) again mismatch (-want +got):\n%s", path, diff)
	}
	s.Close()
	r, err = Open(ctx, path, ReadOnly())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if !r.indexed {
		t.Errorf("Open(%q, ReadOnly).indexed = false after a writer built the index, want true", path)
	}
	if got, ok, err := r.LastGood(ctx, "acme", "dev", "network"); err != nil || !ok || got.Number != 2 {
		t.Errorf("LastGood(network) through the index = #%d, %v, %v, want #2", got.Number, ok, err)
	}
}

// TestOpenAfterOlderWriter opens a history with a current index that a
// strata without the index then wrote, and was killed during: the runs it
// began are not in the index, and are interrupted all the same.
func TestOpenAfterOlderWriter(t *testing.T) {
	ctx := context.Background()
	s, path := open(t)
	finish(t, s, begin(t, s, "acme", "dev", "network"), ResultApplied) // #1
	s.Close()

	// The older strata: runs stored as it stored them, no index kept.
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	if err := db.Update(func(tx *bolt.Tx) error {
		b, err := createStackBucket(tx, "acme", "dev", "network")
		if err != nil {
			return err
		}
		if err := putRun(b, Run{Number: 2, Client: "acme", Env: "dev", Stack: "network", Operation: OperationApply, Result: ResultNoChanges, StartedAt: at}); err != nil {
			return err
		}
		return putRun(b, Run{Number: 3, Client: "acme", Env: "dev", Stack: "network", Operation: OperationApply, Result: ResultRunning, StartedAt: at})
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	s, err = Open(ctx, path)
	if err != nil {
		t.Fatalf("Open(%q) = %v", path, err)
	}
	defer s.Close()
	want := map[string]string{
		"network #1": "applied ()",
		"network #2": "no-changes ()",
		"network #3": "interrupted (" + InterruptedError + ")",
	}
	if diff := cmp.Diff(want, outcomes(t, s, "network")); diff != "" {
		t.Errorf("runs after Open(%q) mismatch (-want +got):\n%s", path, diff)
	}
	if got, ok, err := s.LastGood(ctx, "acme", "dev", "network"); err != nil || !ok || got.Number != 2 {
		t.Errorf("LastGood(network) = #%d, %v, %v, want #2, the older strata's apply", got.Number, ok, err)
	}
}

// TestOpenDamagedIndex opens a history whose running index holds a key
// that does not decode: the index is rebuilt from the runs.
func TestOpenDamagedIndex(t *testing.T) {
	ctx := context.Background()
	s, path := open(t)
	left := begin(t, s, "acme", "dev", "network")
	if err := s.update(func(tx *bolt.Tx) error {
		return tx.Bucket(indexBucket).Bucket(indexRunning).Put([]byte("\x09garbage"), nil)
	}); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open(%q) with a damaged index = %v, want it rebuilt", path, err)
	}
	defer s.Close()
	got, _, err := s.Last(ctx, "acme", "dev", "network")
	if err != nil || got.Number != left.Number || got.Result != ResultInterrupted {
		t.Errorf("Last(network) = #%d %s, %v, want #%d interrupted", got.Number, got.Result, err, left.Number)
	}
}

// TestOpenIndexWithoutRunning opens a history whose index lost its
// running bucket: Open makes it again instead of failing.
func TestOpenIndexWithoutRunning(t *testing.T) {
	ctx := context.Background()
	s, path := open(t)
	done := finish(t, s, begin(t, s, "acme", "dev", "network"), ResultApplied)
	if err := s.update(func(tx *bolt.Tx) error {
		return tx.Bucket(indexBucket).DeleteBucket(indexRunning)
	}); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open(%q) with no running index = %v, want nil", path, err)
	}
	defer s.Close()
	if got, ok, err := s.LastGood(ctx, "acme", "dev", "network"); err != nil || !ok || got.Number != done.Number {
		t.Errorf("LastGood(network) = #%d, %v, %v, want #%d", got.Number, ok, err, done.Number)
	}
	left := begin(t, s, "acme", "dev", "network")
	if left.Number != done.Number+1 {
		t.Errorf("Begin(network) = #%d, want #%d", left.Number, done.Number+1)
	}
}
