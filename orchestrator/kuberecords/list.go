package kuberecords

import (
	"context"
	"fmt"

	"github.com/strata-iac/strata/orchestrator/history"
)

// List returns the stack's runs, newest first: at most limit of them, or
// all when limit <= 0. A stack without runs has an empty list.
func (s *Store) List(ctx context.Context, client, env, stack string, limit int) ([]history.Run, error) {
	runs, err := s.listRuns(ctx, client, env, stack)
	if err != nil {
		return nil, fmt.Errorf("list runs of %s/%s/%s: %w", client, env, stack, err)
	}
	var out []history.Run
	for _, st := range runs {
		if limit > 0 && len(out) == limit {
			break
		}
		out = append(out, st.run)
	}
	return out, nil
}

// listRuns is runs after the checks every read makes.
func (s *Store) listRuns(ctx context.Context, client, env, stack string) ([]stored, error) {
	if err := history.CheckKeys(ctx, client, env, stack); err != nil {
		return nil, err
	}
	return s.runs(ctx, client, env, stack)
}

// Last returns the stack's newest run; false when it has none.
func (s *Store) Last(ctx context.Context, client, env, stack string) (history.Run, bool, error) {
	r, ok, err := s.newest(ctx, client, env, stack, nil)
	if err != nil {
		return history.Run{}, false, fmt.Errorf("last run of %s/%s/%s: %w", client, env, stack, err)
	}
	return r, ok, nil
}

// LastMatching returns the stack's newest run for which match is true;
// false when there is none.
func (s *Store) LastMatching(ctx context.Context, client, env, stack string, match func(history.Run) bool) (history.Run, bool, error) {
	r, ok, err := s.newest(ctx, client, env, stack, match)
	if err != nil {
		return history.Run{}, false, fmt.Errorf("last matching run of %s/%s/%s: %w", client, env, stack, err)
	}
	return r, ok, nil
}

// LastGood returns the stack's last apply that succeeded (history.Run.Good);
// false when there is none.
func (s *Store) LastGood(ctx context.Context, client, env, stack string) (history.Run, bool, error) {
	r, ok, err := s.newest(ctx, client, env, stack, history.Run.Good)
	if err != nil {
		return history.Run{}, false, fmt.Errorf("last good run of %s/%s/%s: %w", client, env, stack, err)
	}
	return r, ok, nil
}

// newest returns the newest run that matches (any, when match is nil).
func (s *Store) newest(ctx context.Context, client, env, stack string, match func(history.Run) bool) (history.Run, bool, error) {
	runs, err := s.listRuns(ctx, client, env, stack)
	if err != nil {
		return history.Run{}, false, err
	}
	for _, st := range runs {
		if match == nil || match(st.run) {
			return st.run, true, nil
		}
	}
	return history.Run{}, false, nil
}
