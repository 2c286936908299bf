package records

import (
	"context"
	"fmt"

	"github.com/strata-iac/strata/orchestrator/history"
)

// List returns the stack's runs, newest first: at most limit of them, or
// all when limit <= 0. A stack without runs has an empty list. Only the
// runs returned are read.
func (s *Records) List(ctx context.Context, client, env, stack string, limit int) ([]history.Run, error) {
	var out []history.Run
	err := s.scan(ctx, client, env, stack, func(r history.Run) bool {
		out = append(out, r)
		return limit <= 0 || len(out) < limit
	})
	if err != nil {
		return nil, fmt.Errorf("list runs of %s/%s/%s: %w", client, env, stack, err)
	}
	return out, nil
}

// Last returns the stack's newest run; false when it has none.
func (s *Records) Last(ctx context.Context, client, env, stack string) (history.Run, bool, error) {
	r, ok, err := s.newest(ctx, client, env, stack, nil)
	if err != nil {
		return history.Run{}, false, fmt.Errorf("last run of %s/%s/%s: %w", client, env, stack, err)
	}
	return r, ok, nil
}

// LastMatching returns the stack's newest run for which match is true;
// false when there is none.
func (s *Records) LastMatching(ctx context.Context, client, env, stack string, match func(history.Run) bool) (history.Run, bool, error) {
	r, ok, err := s.newest(ctx, client, env, stack, match)
	if err != nil {
		return history.Run{}, false, fmt.Errorf("last matching run of %s/%s/%s: %w", client, env, stack, err)
	}
	return r, ok, nil
}

// LastGood returns the stack's last apply that succeeded (history.Run.Good);
// false when there is none.
func (s *Records) LastGood(ctx context.Context, client, env, stack string) (history.Run, bool, error) {
	r, ok, err := s.newest(ctx, client, env, stack, history.Run.Good)
	if err != nil {
		return history.Run{}, false, fmt.Errorf("last good run of %s/%s/%s: %w", client, env, stack, err)
	}
	return r, ok, nil
}

// newest returns the newest run that matches (any, when match is nil).
func (s *Records) newest(ctx context.Context, client, env, stack string, match func(history.Run) bool) (history.Run, bool, error) {
	var (
		found history.Run
		ok    bool
	)
	err := s.scan(ctx, client, env, stack, func(r history.Run) bool {
		if match == nil || match(r) {
			found, ok = r, true
			return false
		}
		return true
	})
	return found, ok, err
}

// scan reads the stack's runs newest first, a few at a time, and gives
// each to more until it returns false.
func (s *Records) scan(ctx context.Context, client, env, stack string, more func(history.Run) bool) error {
	if err := history.CheckKeys(ctx, client, env, stack); err != nil {
		return err
	}
	entries, err := s.runEntries(ctx, Key{Client: client, Env: env, Stack: stack})
	if err != nil {
		return err
	}
	for len(entries) > 0 {
		n := min(len(entries), readers)
		runs, err := s.readRuns(ctx, entries[:n], ofStack(client, env, stack))
		if err != nil {
			return err
		}
		for _, st := range runs {
			if !more(st.run) {
				return nil
			}
		}
		entries = entries[n:]
	}
	return nil
}
