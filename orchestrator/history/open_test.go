package history

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestOpenCreatesParentDirs(t *testing.T) {
	_, path := open(t)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatalf("Stat(%q) = %v, want the file to exist", path, err)
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		t.Errorf("Stat(%q) perm = %v, want no access for group and others", path, perm)
	}
}

func TestOpenPersists(t *testing.T) {
	s, path := open(t)
	ctx := context.Background()
	r := begin(t, s, "acme", "dev", "network")
	r.Summary = Summary{Add: 2}
	r.Duration = 3 * time.Second
	r = finish(t, s, r, ResultApplied)
	if err := s.Close(); err != nil {
		t.Fatalf("Close() = %v, want nil", err)
	}

	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open(%q) again = %v, want nil", path, err)
	}
	defer s2.Close()
	got, ok, err := s2.Last(ctx, "acme", "dev", "network")
	if err != nil || !ok {
		t.Fatalf("Last() after reopen = %v, %v, want a run", ok, err)
	}
	if diff := cmp.Diff(r, got); diff != "" {
		t.Errorf("Last() after reopen mismatch (-want +got):\n%s", diff)
	}
	next := begin(t, s2, "acme", "dev", "network")
	if next.Number != 2 {
		t.Errorf("Begin() after reopen Number = %d, want 2", next.Number)
	}
}

func TestOpenMarksInterrupted(t *testing.T) {
	s, path := open(t)
	ctx := context.Background()
	done := finish(t, s, begin(t, s, "acme", "dev", "network"), ResultApplied)
	left := begin(t, s, "acme", "dev", "network") // the process "dies" here
	other := begin(t, s, "beta", "prod", "api")
	other.Error = "tofu was killed"
	if err := s.Record(ctx, other); err != nil { // still running, with an error already
		t.Fatal(err)
	}
	s.Close()

	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open(%q) again = %v, want nil", path, err)
	}
	defer s2.Close()
	tests := []struct {
		run        Run
		wantResult Result
		wantError  string
	}{
		{done, ResultApplied, ""},
		{left, ResultInterrupted, interruptedError},
		{other, ResultInterrupted, "tofu was killed"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s #%d", tt.run.Stack, tt.run.Number), func(t *testing.T) {
			got, _, err := s2.LastMatching(ctx, tt.run.Client, tt.run.Env, tt.run.Stack, func(r Run) bool { return r.Number == tt.run.Number })
			if err != nil {
				t.Fatal(err)
			}
			if got.Result != tt.wantResult || got.Error != tt.wantError {
				t.Errorf("run after reopen = %q (%q), want %q (%q)", got.Result, got.Error, tt.wantResult, tt.wantError)
			}
		})
	}
}

func TestOpenBusy(t *testing.T) {
	_, path := open(t)
	start := time.Now()
	s2, err := Open(context.Background(), path, WithTimeout(100*time.Millisecond))
	if err == nil {
		s2.Close()
		t.Fatalf("Open(%q) while open = nil, want an error", path)
	}
	want := fmt.Sprintf("open history %s: another strata process is using it (timeout after 100ms)", path)
	if err.Error() != want {
		t.Errorf("Open(%q) while open = %q, want %q", path, err, want)
	}
	if !errors.Is(err, ErrBusy) {
		t.Errorf("Open(%q) while open = %v, want errors.Is ErrBusy", path, err)
	}
	if waited := time.Since(start); waited > 3*time.Second {
		t.Errorf("Open(%q) while open waited %v, want about the timeout", path, waited)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	notDB := filepath.Join(dir, "not-a-db")
	if err := os.WriteFile(notDB, []byte("this is not a bbolt file, not at all, and it is long enough"), 0o600); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		path string
	}{
		{"cancelled", cancelled, filepath.Join(dir, "h.db")},
		{"not a database", context.Background(), notDB},
		{"parent is a file", context.Background(), filepath.Join(notDB, "h.db")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Open(tt.ctx, tt.path, WithTimeout(100*time.Millisecond))
			if err == nil {
				s.Close()
				t.Fatalf("Open(%q) = nil, want an error", tt.path)
			}
			if want := "open history " + tt.path + ": "; len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
				t.Errorf("Open(%q) = %q, want it to start with %q", tt.path, err, want)
			}
		})
	}
}
