package history

import (
	"context"
	"testing"
)

// TestOpenReadOnly reads the history while another Store, standing for a
// running daemon, holds the file's write lock: the reader does not wait
// for it, and sees the history as it was when the writer opened it.
func TestOpenReadOnly(t *testing.T) {
	ctx := context.Background()
	s, path := open(t)
	before := finish(t, s, begin(t, s, "acme", "dev", "network"), ResultApplied)
	s.Close()

	// Nobody holds the file: it is read directly.
	r, err := Open(ctx, path, ReadOnly())
	if err != nil {
		t.Fatalf("Open(%q, ReadOnly) = %v, want nil", path, err)
	}
	if r.FromSnapshot() {
		t.Errorf("Open(%q, ReadOnly).FromSnapshot() = true with no writer, want false", path)
	}
	if _, err := r.Begin(ctx, Run{Client: "acme", Env: "dev", Stack: "network"}); err == nil {
		t.Errorf("Begin() on a read-only history = nil, want an error")
	}
	r.Close()

	w, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open(%q) = %v, want nil", path, err)
	}
	defer w.Close()
	during := begin(t, w, "acme", "dev", "network")

	r, err = Open(ctx, path, ReadOnly())
	if err != nil {
		t.Fatalf("Open(%q, ReadOnly) while a writer holds it = %v, want nil", path, err)
	}
	defer r.Close()
	if !r.FromSnapshot() {
		t.Errorf("Open(%q, ReadOnly).FromSnapshot() = false while a writer holds it, want true", path)
	}
	got, ok, err := r.Last(ctx, "acme", "dev", "network")
	if err != nil || !ok || got.Number != before.Number || got.Result != ResultApplied {
		t.Errorf("Last() from the snapshot = %+v, %v, %v, want run #%d applied (the writer's #%d began after it opened)", got, ok, err, before.Number, during.Number)
	}
	// The writer is not blocked by the reader.
	finish(t, w, during, ResultApplied)
}

func TestOpenReadOnlyCreatesMissing(t *testing.T) {
	path := t.TempDir() + "/history.db"
	s, err := Open(context.Background(), path, ReadOnly())
	if err != nil {
		t.Fatalf("Open(%q, ReadOnly) of a missing file = %v, want an empty history", path, err)
	}
	defer s.Close()
	names, err := s.Stacks(context.Background(), "acme", "dev")
	if err != nil || len(names) != 0 {
		t.Errorf("Stacks() = %v, %v, want none", names, err)
	}
}
