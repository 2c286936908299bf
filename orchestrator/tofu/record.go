package tofu

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/strata-iac/strata/internal/atomicfile"
)

// Files an apply keeps in its workspace, so that a strata that starts
// after another died can find the apply and its outcome.
const (
	// RecordFile is the apply's run record.
	RecordFile = "strata-apply.json"
	// StreamFile is tofu's -json output, written by tofu itself.
	StreamFile = "strata-apply.jsonl"
	// StderrFile is tofu's standard error.
	StderrFile = "strata-apply.stderr"
)

// Record describes an apply strata started in a workspace. It is written
// before tofu starts, again once tofu has its process ID, and again with
// the exit status when strata sees tofu exit. It stays until the run is
// recorded in history (see ClearRecord).
type Record struct {
	// Run is the history number of the run the apply belongs to.
	Run int `json:"run"`
	// PlanFile is the plan being applied.
	PlanFile string `json:"planFile"`
	// Host is the machine strata and tofu run on.
	Host string `json:"host"`
	// Strata and StrataStart identify the strata process that started the
	// apply: its process ID and the kernel's start time of that process
	// (so that a reused process ID is never taken for it).
	Strata      int    `json:"strataPid"`
	StrataStart string `json:"strataStart,omitempty"`
	// PID and PIDStart identify tofu the same way; PID is 0 until tofu
	// has started. tofu leads its own process group, whose ID is PID.
	PID      int    `json:"pid"`
	PIDStart string `json:"pidStart,omitempty"`
	// Started is when the apply started.
	Started time.Time `json:"started"`
	// Exit is tofu's exit status, once strata has seen it exit; nil when
	// strata stopped first.
	Exit *int `json:"exit,omitempty"`
	// Finished is when tofu exited, with Exit.
	Finished time.Time `json:"finished,omitzero"`
	// Recorded is set when the run's outcome is in history although the
	// record stays (its tofu was killed: the next run adopts the record
	// only to release the state lock that tofu held).
	Recorded bool `json:"recorded,omitempty"`
}

// Killed reports whether strata saw tofu exit by a signal (killed, as by
// the OOM killer, or by a pod's death that strata outlived for a moment):
// tofu wrote neither its state nor the end of what it was doing.
func (r Record) Killed() bool { return r.Exit != nil && *r.Exit < 0 }

// ReadRecord reads the run record of the workspace dir. It reports false
// when there is none: no apply was left unrecorded.
func ReadRecord(dir string) (Record, bool, error) {
	var rec Record
	b, err := os.ReadFile(filepath.Join(dir, RecordFile))
	if errors.Is(err, fs.ErrNotExist) {
		return rec, false, nil
	}
	if err != nil {
		return rec, false, fmt.Errorf("read apply record in %s: %w", dir, err)
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		return rec, false, fmt.Errorf("read apply record %s: %w; if no tofu runs there any more, delete the file", filepath.Join(dir, RecordFile), err)
	}
	return rec, true, nil
}

// ClearRecord removes the workspace's run record and tofu's output: the
// run is recorded in history, and nothing is left to adopt.
func ClearRecord(dir string) error {
	for _, name := range []string{RecordFile, StreamFile, StderrFile} {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("clear apply record in %s: %w", dir, err)
		}
	}
	return nil
}

// MarkRecorded notes in the record of workspace dir that its run's
// outcome is in history (see Record.Recorded).
func MarkRecorded(dir string) error {
	rec, ok, err := ReadRecord(dir)
	if err != nil || !ok {
		return err
	}
	rec.Recorded = true
	return writeRecord(dir, rec)
}

func writeRecord(dir string, rec Record) error {
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(dir, RecordFile), b, 0o600); err != nil {
		return fmt.Errorf("write apply record in %s: %w", dir, err)
	}
	return nil
}

// TofuAlive reports whether the record's tofu is still running. A record
// from another host cannot be checked, and counts as running.
func (r Record) TofuAlive() bool {
	if r.Host != hostname() {
		return true
	}
	return r.PID > 0 && alive(r.PID, r.PIDStart)
}

// StrataAlive reports whether the strata that started the apply is still
// running, and so still looks after it. A record from another host counts
// as looked after.
func (r Record) StrataAlive() bool {
	if r.Host != hostname() {
		return true
	}
	return alive(r.Strata, r.StrataStart)
}

func hostname() string {
	h, err := os.Hostname()
	if err != nil {
		return ""
	}
	return h
}
