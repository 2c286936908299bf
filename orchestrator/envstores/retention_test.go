package envstores

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/runlog"
)

func TestRetentionDefaults(t *testing.T) {
	if got := Retention(environment.DefaultSettings("/repo")); got != history.DefaultRetention {
		t.Errorf("Retention(DefaultSettings) = %+v, want history.DefaultRetention %+v", got, history.DefaultRetention)
	}
}

// TestFileRecordsRetain: the state directory's history keeps an
// environment's runs as its settings say, and a run's log file goes with
// its run.
func TestFileRecordsRetain(t *testing.T) {
	ctx := context.Background()
	set := environment.DefaultSettings(t.TempDir())
	set.StateDir = t.TempDir()
	set.KeepRuns, set.KeepDays = 2, 0
	env := &environment.Environment{Client: "acme", Name: "dev"}
	h, _, closeHistory, err := FileRecords{}.OpenHistory(ctx, env, set, false)
	if err != nil {
		t.Fatal(err)
	}
	defer closeHistory()
	logs := RunLogDir(set.StateDir, env.Client, env.Name)
	start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for i := range 5 {
		r, err := h.Begin(ctx, history.Run{Client: "acme", Env: "dev", Stack: "network", Operation: history.OperationApply, StartedAt: start.Add(time.Duration(i) * time.Minute)})
		if err != nil {
			t.Fatal(err)
		}
		r.Result = history.ResultFailed
		if err := h.Record(ctx, r); err != nil {
			t.Fatal(err)
		}
		path := runlog.RunLogFile(logs, "network", r.Number)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("INFO [network] run started\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The next run lets #3 go, and its log.
	if _, err := h.Begin(ctx, history.Run{Client: "acme", Env: "dev", Stack: "network", Operation: history.OperationApply, StartedAt: start.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	runs, err := h.(*history.Store).List(ctx, "acme", "dev", "network", 0)
	if err != nil {
		t.Fatal(err)
	}
	var kept []int
	for _, r := range runs {
		kept = append(kept, r.Number)
	}
	if want := []int{6, 5, 1}; !cmp.Equal(kept, want) {
		t.Errorf("runs kept with keepRuns 2, keepDays 0 = %v, want %v", kept, want)
	}
	for n, want := range map[int]bool{1: true, 2: false, 3: false, 4: false, 5: true} {
		_, err := os.Stat(runlog.RunLogFile(logs, "network", n))
		if got := err == nil; got != want {
			t.Errorf("run #%d's log kept = %v (%v), want %v", n, got, err, want)
		}
	}
}
