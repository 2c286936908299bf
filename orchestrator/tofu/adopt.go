package tofu

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Outcome is how an apply ended, as its stream file tells it.
type Outcome struct {
	// Completed is true when tofu reported the apply complete (its last
	// change summary).
	Completed bool
	// Summary counts what the apply changed, when tofu reported it.
	Summary *Summary
	// Errors are tofu's error diagnostics.
	Errors []Diagnostic
	// Exit is tofu's exit status, when the strata that started it saw it.
	Exit *int
}

// Err is nil for an apply that completed, and says why otherwise.
func (o Outcome) Err() error {
	if o.Completed && len(o.Errors) == 0 && (o.Exit == nil || *o.Exit == 0) {
		return nil
	}
	if len(o.Errors) > 0 {
		msgs := make([]string, 0, len(o.Errors))
		for _, d := range o.Errors {
			msgs = append(msgs, d.String())
		}
		return &Error{Diagnostics: o.Errors, msg: strings.Join(msgs, "; "), err: errors.New("tofu apply failed")}
	}
	if o.Exit != nil {
		return fmt.Errorf("tofu apply exited with status %d", *o.Exit)
	}
	return errors.New("tofu stopped before the apply completed")
}

// ReadOutcome reads the outcome of the apply recorded in workspace dir
// from its stream file, handing every event to events (which may be nil).
func ReadOutcome(dir string, rec Record, events func(Event)) (Outcome, error) {
	o := Outcome{Exit: rec.Exit}
	f, err := os.Open(filepath.Join(dir, StreamFile))
	if err != nil {
		return o, fmt.Errorf("read apply stream in %s: %w", dir, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		e, ok := decodeEvent(bytes.TrimSpace(sc.Bytes()))
		if !ok {
			continue
		}
		switch {
		case e.Type == "change_summary" && e.Summary != nil && e.Summary.Operation != "plan":
			o.Completed, o.Summary = true, e.Summary
		case e.Diagnostic != nil && e.Diagnostic.Severity == "error":
			o.Errors = append(o.Errors, *e.Diagnostic)
		}
		if events != nil {
			events(e)
		}
	}
	if err := sc.Err(); err != nil {
		return o, fmt.Errorf("read apply stream in %s: %w", dir, err)
	}
	return o, nil
}

// Adopt takes over an apply that a strata which is gone started in
// workspace dir: it waits, polling every poll, for that apply's tofu to
// exit, kills what is left of its process group, and reads the outcome
// from the stream file. The apply is never started again: what it did is
// in its state. When ctx ends first, Adopt returns ctx's error and the
// record stays for the next strata.
func Adopt(ctx context.Context, dir string, rec Record, poll time.Duration, events func(Event)) (Outcome, error) {
	if poll <= 0 {
		poll = 500 * time.Millisecond
	}
	t := time.NewTicker(poll)
	defer t.Stop()
	// A record without a process ID was written just before tofu started:
	// whatever runs in the workspace may be that tofu, and is waited for.
	running := func() bool {
		if rec.PID == 0 && rec.Host == hostname() {
			return len(RunningIn(dir)) > 0
		}
		return rec.TofuAlive()
	}
	for running() {
		select {
		case <-ctx.Done():
			return Outcome{}, fmt.Errorf("adopt apply of run #%d (tofu pid %d): %w", rec.Run, rec.PID, ctx.Err())
		case <-t.C:
		}
	}
	if rec.Host == hostname() {
		endGroup(rec.PID)
	}
	o, err := ReadOutcome(dir, rec, events)
	if err != nil {
		return o, fmt.Errorf("adopt apply of run #%d: %w", rec.Run, err)
	}
	return o, nil
}
