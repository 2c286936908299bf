package history

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// open opens a fresh store in a temporary directory, closed at the end of
// the test.
func open(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state", "history.db")
	s, err := Open(context.Background(), path, WithTimeout(time.Second))
	if err != nil {
		t.Fatalf("Open(%q) = %v, want nil", path, err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

// begin begins a run of the stack, failing the test on error.
func begin(t *testing.T, s *Store, client, env, stack string) Run {
	t.Helper()
	r, err := s.Begin(context.Background(), Run{Client: client, Env: env, Stack: stack, Operation: OperationApply})
	if err != nil {
		t.Fatalf("Begin(%s/%s/%s) = %v, want nil", client, env, stack, err)
	}
	return r
}

// finish records r with the given result.
func finish(t *testing.T, s *Store, r Run, result Result) Run {
	t.Helper()
	r.Result = result
	if err := s.Record(context.Background(), r); err != nil {
		t.Fatalf("Record(%s #%d) = %v, want nil", r.Stack, r.Number, err)
	}
	return r
}
