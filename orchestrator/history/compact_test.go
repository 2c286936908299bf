//go:build unix

package history

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// compactSmall makes a writer's Open compact any file with free pages
// over half of it, for the test.
func compactSmall(t *testing.T) {
	t.Helper()
	minFree, ratio := compactMinFree, compactRatio
	compactMinFree, compactRatio = 1, 0.5
	t.Cleanup(func() { compactMinFree, compactRatio = minFree, ratio })
}

// trimmed writes a history whose retention let most of its runs go,
// and returns the numbers of the runs each stack keeps, newest first.
func trimmed(t *testing.T, path string) map[string][]int {
	t.Helper()
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Without retention first, then with one: a history that grew before
	// it kept any, as an upgraded strata finds it, and lets most of its
	// runs go at once.
	start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	note := strings.Repeat("a long error; ", 150)
	for i := range 81 {
		if i == 80 {
			s.Retain("acme", "dev", Retention{Runs: 3}, nil)
		}
		for st := range 10 {
			r, err := s.Begin(ctx, Run{Client: "acme", Env: "dev", Stack: fmt.Sprintf("stack-%02d", st), Operation: OperationApply,
				StartedAt: start.Add(time.Duration(i) * time.Minute), Digest: fmt.Sprintf("sha256:%064d", i)})
			if err != nil {
				t.Fatal(err)
			}
			r.Result, r.Error = ResultFailed, note
			if i == 10 {
				r.Result, r.Error = ResultApplied, ""
			}
			if err := s.Record(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
	}
	kept := map[string][]int{}
	for st := range 10 {
		stack := fmt.Sprintf("stack-%02d", st)
		runs, err := s.List(ctx, "acme", "dev", stack, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runs {
			kept[stack] = append(kept[stack], r.Number)
		}
	}
	return kept
}

// holds checks that the history at path holds the runs kept and its
// index and heads still answer.
func holds(t *testing.T, s *Store, kept map[string][]int) {
	t.Helper()
	ctx := context.Background()
	for stack, want := range kept {
		runs, err := s.List(ctx, "acme", "dev", stack, 0)
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, r := range runs {
			got = append(got, r.Number)
		}
		if !cmp.Equal(got, want) {
			t.Errorf("List(%s) = %v, want %v", stack, got, want)
		}
		h, err := s.Head(ctx, "acme", "dev", stack)
		if err != nil {
			t.Fatal(err)
		}
		if h.Last.Number != want[0] || h.Good.Number != 11 {
			t.Errorf("Head(%s) = last #%d, good #%d, want #%d and #11", stack, h.Last.Number, h.Good.Number, want[0])
		}
	}
	if !s.indexed || !s.heads {
		t.Errorf("index current %v, heads current %v, want both", s.indexed, s.heads)
	}
}

func size(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

func TestOpenCompacts(t *testing.T) {
	compactSmall(t)
	path := filepath.Join(t.TempDir(), "history.db")
	kept := trimmed(t, path)
	before := size(t, path)
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	after := size(t, path)
	if after*2 > before {
		t.Errorf("size after Open = %d, want under half of %d: the free pages were not given back", after, before)
	}
	holds(t, s, kept)
	// The compacted file goes on as any other: a run, and the next Open
	// finds nothing to compact.
	r := begin(t, s, "acme", "dev", "stack-00")
	finish(t, s, r, ResultFailed)
	s.Close()
	if _, err := os.Stat(path + CompactSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Stat(%s) = %v, want no such file", path+CompactSuffix, err)
	}
	ro, err := Open(context.Background(), path, ReadOnly())
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if !ro.indexed || !ro.heads {
		t.Errorf("a reader of the compacted file: index current %v, heads current %v, want both", ro.indexed, ro.heads)
	}
	if last, _, err := ro.Last(context.Background(), "acme", "dev", "stack-00"); err != nil || last.Number != r.Number {
		t.Errorf("Last(stack-00) = #%d, %v, want #%d", last.Number, err, r.Number)
	}
}

// TestCompactCrash kills a process in the middle of a compaction, at each
// step, as a crash of the machine would stop it (SIGKILL): the next Open
// finds the whole history, and compacts it if the crash came before the
// copy took the file's place.
func TestCompactCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	for _, step := range []string{"opened", "copied", "renamed"} {
		t.Run(step, func(t *testing.T) {
			compactSmall(t)
			path := filepath.Join(t.TempDir(), "history.db")
			kept := trimmed(t, path)
			before := size(t, path)
			cmd := exec.Command(os.Args[0], "-test.run=^TestCompactCrashChild$")
			cmd.Env = append(os.Environ(), "HISTORY_COMPACT_CRASH="+step, "HISTORY_COMPACT_PATH="+path)
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("the compacting process ended with %v, want killed at %s:\n%s", err, step, out)
			}
			s, err := Open(context.Background(), path)
			if err != nil {
				t.Fatalf("Open after a crash at %s = %v", step, err)
			}
			defer s.Close()
			holds(t, s, kept)
			if after := size(t, path); after*2 > before {
				t.Errorf("size after a crash at %s and an Open = %d, want under half of %d", step, after, before)
			}
			if _, err := os.Stat(path + CompactSuffix); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("Stat(%s) = %v, want no such file", path+CompactSuffix, err)
			}
		})
	}
}

// TestCompactCrashChild is the process TestCompactCrash kills.
func TestCompactCrashChild(t *testing.T) {
	at, path := os.Getenv("HISTORY_COMPACT_CRASH"), os.Getenv("HISTORY_COMPACT_PATH")
	if at == "" {
		t.Skip("run by TestCompactCrash")
	}
	compactSmall(t)
	compactStep = func(step string) {
		if step == at {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
	}
	if at == "opened" {
		// A crash in the middle of the copy: the partial copy is there.
		compactStep = nil
		compactMinFree = 1 << 62
		s, err := Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path+CompactSuffix, []byte("a partial copy"), 0o600); err != nil {
			t.Fatal(err)
		}
		_ = s
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
	if _, err := Open(context.Background(), path); err != nil {
		t.Fatal(err)
	}
	t.Fatalf("Open compacted %s without reaching step %s", path, at)
}

// TestCompactWhileWaiting: a process that opened the file and waits for
// its lock while the holder compacts it opens the compacted file once it
// has the lock, not the old one, which is no longer at the path.
func TestCompactWhileWaiting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	kept := trimmed(t, path)
	ctx := context.Background()
	a, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	type opened struct {
		s   *Store
		err error
	}
	done := make(chan opened)
	go func() {
		s, err := Open(ctx, path, WithTimeout(10*time.Second))
		done <- opened{s, err}
	}()
	time.Sleep(200 * time.Millisecond) // b waits for a's lock
	if err := a.compact(); err != nil {
		t.Fatal(err)
	}
	r := begin(t, a, "acme", "dev", "stack-00")
	finish(t, a, r, ResultFailed)
	kept["stack-00"] = append([]int{r.Number}, kept["stack-00"]...)
	a.Close()
	b := <-done
	if b.err != nil {
		t.Fatalf("Open while compacted = %v", b.err)
	}
	defer b.s.Close()
	holds(t, b.s, kept)
}
