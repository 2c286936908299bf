package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// TestReadWhileReconciling reads status, history and versions while another
// process (here a Store, as a running reconcile holds it) has the
// history's write lock: none of them waits for it.
func TestReadWhileReconciling(t *testing.T) {
	root := repo(t)
	env := filepath.Join(root, "environments", "acme", "dev")
	state := t.TempDir()
	if _, errOut, code := strata(t, "apply", env, "--tofu", tofutest.Binary(t), "--state-dir", state); code != 0 {
		t.Fatalf("apply exit code = %d:\n%s", code, errOut)
	}
	holder, err := history.Open(context.Background(), filepath.Join(state, "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	const note = "a reconcile is running; the history is shown as it was when it began"
	runCases(t, []cliCase{
		{"status", []string{"status", env, "--state-dir", state}, 0, []string{"base", "#1 apply", "applied"}, []string{note}},
		{"history", []string{"history", env, "--state-dir", state}, 0, []string{"base", "#1", "install", "applied"}, []string{note}},
		{"versions", []string{"versions", env, "--state-dir", state}, 0, []string{"base"}, nil},
	})
}

// garble writes garbage over every page of the history file after its two
// meta pages, as a damaged disk might.
func garble(t *testing.T, path string) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	page := int64(os.Getpagesize())
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(bytes.Repeat([]byte{0x5a}, int(info.Size()-2*page)), 2*page); err != nil {
		t.Fatal(err)
	}
}

// TestDamagedHistory damages a real history: apply says so and goes on
// with a new one; status and history report it with the fix, and
// history --repair moves it aside. State is never touched.
func TestDamagedHistory(t *testing.T) {
	root := repo(t)
	env := filepath.Join(root, "environments", "acme", "dev")
	state := t.TempDir()
	run := []string{"--tofu", tofutest.Binary(t), "--state-dir", state}
	if _, errOut, code := strata(t, append([]string{"apply", env}, run...)...); code != 0 {
		t.Fatalf("apply exit code = %d:\n%s", code, errOut)
	}
	db := filepath.Join(state, "history.db")
	stateFile := filepath.Join(state, "state", "acme", "dev", "base.tfstate")
	before, err := os.ReadFile(stateFile)
	if err != nil {
		t.Fatal(err)
	}

	garble(t, db)
	runCases(t, []cliCase{
		{"status reports the damage", []string{"status", env, "--state-dir", state}, 1, nil, []string{"the history file is damaged", "strata history ENV --repair"}},
		{"history reports the damage", []string{"history", env, "--state-dir", state}, 1, nil, []string{"the history file is damaged", "strata history ENV --repair"}},
		{"apply goes on with a new history", append([]string{"apply", env}, run...), 0,
			[]string{"the history file is damaged", "started a new history", "6 no-changes"}, nil},
		{"the new history", []string{"history", env, "base", "--state-dir", state}, 0, []string{"#1", "no-changes"}, nil},
		{"repair of a sound history", []string{"history", env, "--repair", "--state-dir", state}, 0, []string{"is not damaged: nothing to repair"}, nil},
	})
	if after, err := os.ReadFile(stateFile); err != nil || !bytes.Equal(before, after) {
		t.Errorf("state %s changed through the damaged history (%v)", stateFile, err)
	}
	moved, _ := filepath.Glob(db + ".corrupt-*")
	if len(moved) != 1 {
		t.Errorf("after apply the damaged history was moved to %v, want one file", moved)
	}

	garble(t, db)
	out, errOut, code := strata(t, "history", env, "--repair", "--state-dir", state)
	if code != 0 || !strings.Contains(out, "was damaged: moved it to "+db+".corrupt-") {
		t.Errorf("history --repair = %d, %q %q, want the file moved aside", code, out, errOut)
	}
	runCases(t, []cliCase{
		{"history after the repair", []string{"history", env, "--state-dir", state}, 0, nil, nil},
	})
	if after, err := os.ReadFile(stateFile); err != nil || !bytes.Equal(before, after) {
		t.Errorf("state %s changed by the repair (%v)", stateFile, err)
	}
}

// TestHistoryRetention applies an environment four times keeping one run
// by count alone: history --all lists what is kept (each stack's first
// run, its last good one and its newest), says what the history keeps,
// and the run logs of the runs let go are gone with them.
func TestHistoryRetention(t *testing.T) {
	root := repo(t)
	env := filepath.Join(root, "environments", "acme", "dev")
	state := t.TempDir()
	for i := range 4 {
		if _, errOut, code := strata(t, "apply", env, "--tofu", tofutest.Binary(t), "--state-dir", state, "--drift-interval", "0", "--keep-runs", "1", "--keep-days", "0"); code != 0 {
			t.Fatalf("apply #%d exit code = %d:\n%s", i+1, code, errOut)
		}
	}
	out, errOut, code := strata(t, "history", env, "base", "--all", "--state-dir", state, "-o", "json")
	if code != 0 {
		t.Fatalf("history --all exit code = %d:\n%s", code, errOut)
	}
	var runs []history.Run
	if err := json.Unmarshal([]byte(out), &runs); err != nil {
		t.Fatalf("history -o json = %v:\n%s", err, out)
	}
	var kept []int
	for _, r := range runs {
		kept = append(kept, r.Number)
	}
	// #4 the newest, #3 the last good one when #4 began, #1 the first.
	if want := []int{4, 3, 1}; !cmp.Equal(kept, want) {
		t.Errorf("history --all of base = %v, want %v", kept, want)
	}
	logs, err := filepath.Glob(filepath.Join(state, "logs", "acme", "dev", "base", "*.log"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range logs {
		names = append(names, filepath.Base(l))
	}
	if want := []string{"1.log", "3.log", "4.log"}; !cmp.Equal(names, want) {
		t.Errorf("run logs of base = %v, want %v", names, want)
	}
	out, _, _ = strata(t, "history", env, "--all", "--state-dir", state)
	if want := "The history keeps the last 100 runs of each stack and those of the last 14 days, its first run and its last good one (keepRuns 100, keepDays 14)."; !strings.Contains(out, want) {
		t.Errorf("history --all does not say %q:\n%s", want, out)
	}
	if _, errOut, code := strata(t, "history", env, "--all", "--limit", "3", "--state-dir", state); code != 2 || !strings.Contains(errOut, "give one of them") {
		t.Errorf("history --all --limit 3 = exit %d, %s, want a usage error", code, errOut)
	}
}
