package history

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/strata-iac/strata/orchestrator/runlog"
)

// TestSoakLevelsOff runs a simulated clock through 14 days of drift
// checks every 10 minutes, of every stack of an environment, with a
// change now and then (an apply with changes, sometimes a failure), each
// run with its log file, as a reconcile loop records them: Begin and
// Record, the run log written, the history opened again each day (a
// writer's Open, which compacts and writes the snapshot). The history
// keeps the last 100 runs of each stack and those of the last day
// (--keep-days 1). The state directory's size must level off: the last 7
// days add less than 5% to what the first 7 left.
//
// make test runs it with STRATA_SOAK_STACKS stacks (default 3, under the
// race detector); make soak with 1,000 (STRATA_SOAK_STACKS=1000), which
// the README's figures are from. fsync is off: it changes how long a run
// takes, not what the file holds.
func TestSoakLevelsOff(t *testing.T) {
	if testing.Short() {
		t.Skip("a simulated fortnight of runs")
	}
	stacks := 3
	if v := os.Getenv("STRATA_SOAK_STACKS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("STRATA_SOAK_STACKS = %q, want a number of stacks", v)
		}
		stacks = n
	}
	const (
		days     = 14
		interval = 10 * time.Minute
	)
	keep := Retention{Runs: DefaultKeepRuns, Age: Day}
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "history.db")
	logs := filepath.Join(dir, "logs", "acme", "prod")
	rng := rand.New(rand.NewPCG(1, 2))
	open := func() *Store {
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		s.db.NoSync = true
		s.Retain("acme", "prod", keep, func(stack string, n int) {
			if err := runlog.RemoveRunLog(logs, stack, n); err != nil {
				t.Error(err)
			}
		})
		return s
	}
	names := make([]string, stacks)
	for i := range names {
		names[i] = fmt.Sprintf("stack-%04d", i)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	line := []byte(`INFO [stack] run #1 started {"operation": "apply", "mode": "auto", "version": "1.4.2"}` + "\n" +
		`INFO [stack] run #1 finished in 2.1s: the infrastructure is up to date` + "\n")
	var sizes []int64
	s := open()
	began := time.Now()
	runs := 0
	for day := range days {
		if day > 0 {
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s = open()
		}
		for tick := range int(Day / interval) {
			now := start.Add(time.Duration(day)*Day + time.Duration(tick)*interval)
			for _, stack := range names {
				r, err := s.Begin(ctx, Run{
					Client: "acme", Env: "prod", Stack: stack, Operation: OperationApply, StartedAt: now,
					Cause: "drift", ToVersion: "1.4.2", Digest: "sha256:8d3c1f0e5b7a9c2d4e6f8a0b1c3d5e7f9a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d",
					Fingerprint: "hmac-sha256:4f2a9c1e7b3d5f8a0c2e4b6d8f1a3c5e", Hashes: "hmac-sha256/1a2b3c4d5e6f",
					Inputs: map[string]string{"region": "9f8e7d6c5b4a", "cidr": "1a2b3c4d5e6f", "tags": "0f1e2d3c4b5a"},
				})
				if err != nil {
					t.Fatal(err)
				}
				r.Result, r.Duration = ResultNoChanges, 2100*time.Millisecond
				switch x := rng.IntN(1000); {
				case x < 2:
					r.Result, r.Error = ResultFailed, "apply: Error: creating EC2 Instance: RequestLimitExceeded: Request limit exceeded."
				case x < 10:
					r.Result, r.Cause, r.Summary, r.PlanID = ResultApplied, "config", Summary{Add: 1, Change: 2}, fmt.Sprintf("plan-%012x", rng.Int64N(1<<48))
				}
				r.StateSerial, r.StateLineage = uint64(runs), "5b0c3e4d-8f7a-4b2c-9d1e-6f3a2b1c0d9e"
				if err := s.Record(ctx, r); err != nil {
					t.Fatal(err)
				}
				log := runlog.RunLogFile(logs, stack, r.Number)
				if r.Number == 1 {
					if err := os.MkdirAll(filepath.Dir(log), 0o700); err != nil {
						t.Fatal(err)
					}
				}
				if err := os.WriteFile(log, line, 0o600); err != nil {
					t.Fatal(err)
				}
				runs++
			}
		}
		sizes = append(sizes, dirSize(t, dir))
		t.Logf("day %2d: %d runs, state directory %s (history %s), %s", day+1, runs, mib(sizes[day]), mib(fileSize(t, path)), time.Since(began).Round(time.Second))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// What each stack keeps: the last day's runs, or the last 100, its
	// first and its last good one.
	s = open()
	defer s.Close()
	for _, stack := range []string{names[0], names[len(names)-1]} {
		kept, err := s.List(ctx, "acme", "prod", stack, 0)
		if err != nil {
			t.Fatal(err)
		}
		perDay := int(Day / interval)
		if len(kept) < perDay || len(kept) > perDay+2 {
			t.Errorf("%s keeps %d runs, want the %d of the last day, and its first and last good", stack, len(kept), perDay)
		}
		if first := kept[len(kept)-1]; first.Number != 1 {
			t.Errorf("%s's oldest run kept is #%d, want #1", stack, first.Number)
		}
		logs, err := filepath.Glob(filepath.Join(logs, stack, "*.log"))
		if err != nil || len(logs) != len(kept) {
			t.Errorf("%s has %d run logs, %v, want one per run kept (%d)", stack, len(logs), err, len(kept))
		}
	}
	week, fortnight := sizes[6], sizes[days-1]
	t.Logf("%d stacks: %s after 7 days, %s after 14 (%+.1f%%)", stacks, mib(week), mib(fortnight), 100*float64(fortnight-week)/float64(week))
	if fortnight-week >= week/20 {
		t.Errorf("the state directory grew from %s after 7 days to %s after 14, want under 5%% more: it does not level off", mib(week), mib(fortnight))
	}
}

// dirSize is what the files under dir take on the disk.
func dirSize(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		n += diskSize(fi)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return diskSize(fi)
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
