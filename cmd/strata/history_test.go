package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
