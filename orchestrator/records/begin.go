package records

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/strata-iac/strata/orchestrator/history"
)

// maxBeginTries bounds how often Begin takes the next number after
// another writer took it first.
const maxBeginTries = 50

// Begin stores r as the stack's next run, with Result "running", and
// returns it with its Number, counting each stack's runs from 1.
//
// The number is taken by creating the run's object only if there is none:
// of two writers that read the same last run, one creates the object and
// the other takes the number after it. Runs of the stack still "running"
// were left by a process that stopped (a stack runs once at a time), and
// are marked interrupted. The runs that the environment's retention no
// longer keeps are deleted (see Retain).
func (s *Records) Begin(ctx context.Context, r history.Run) (history.Run, error) {
	if err := history.CheckKeys(ctx, r.Client, r.Env, r.Stack); err != nil {
		return history.Run{}, fmt.Errorf("begin run %s: %w", stackKey(r), err)
	}
	r.Result = history.ResultRunning
	if r.StartedAt.IsZero() {
		r.StartedAt = time.Now().UTC()
	}
	for range maxBeginTries {
		entries, err := s.runEntries(ctx, Key{Client: r.Client, Env: r.Env, Stack: r.Stack})
		if err != nil {
			return history.Run{}, fmt.Errorf("begin run %s: %w", stackKey(r), err)
		}
		r.Number = 1
		if len(entries) > 0 {
			r.Number = entries[0].Key.Number + 1
		}
		b, err := encodeRun(r)
		if err != nil {
			return history.Run{}, fmt.Errorf("begin run %s: %w", stackKey(r), err)
		}
		err = s.objects.Create(ctx, runKey(r.Client, r.Env, r.Stack, r.Number), b)
		if errors.Is(err, ErrChanged) {
			continue
		}
		if err != nil {
			return history.Run{}, fmt.Errorf("begin run %s: %w", stackKey(r), err)
		}
		before, err := s.readRuns(ctx, entries, ofStack(r.Client, r.Env, r.Stack))
		if err != nil {
			return r, fmt.Errorf("begin run %s #%d: %w", stackKey(r), r.Number, err)
		}
		if err := s.interrupt(ctx, before); err != nil {
			return r, fmt.Errorf("begin run %s #%d: %w", stackKey(r), r.Number, err)
		}
		if err := s.retain(ctx, r.Client, r.Env, before, r.StartedAt); err != nil {
			return r, fmt.Errorf("begin run %s #%d: %w", stackKey(r), r.Number, err)
		}
		return r, nil
	}
	return history.Run{}, fmt.Errorf("begin run %s: other writers took %d numbers in a row; try again", stackKey(r), maxBeginTries)
}
