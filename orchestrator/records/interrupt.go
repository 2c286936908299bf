package records

import (
	"context"
	"errors"
	"fmt"

	"github.com/strata-iac/strata/orchestrator/history"
)

// interrupt marks the runs still "running" as interrupted. Each write
// names the version it read: a run its writer recorded meanwhile keeps its
// result, and a run deleted meanwhile stays deleted.
func (s *Records) interrupt(ctx context.Context, runs []stored) error {
	for _, st := range runs {
		if st.run.Result != history.ResultRunning {
			continue
		}
		b, err := encodeRun(st.run.MarkInterrupted())
		if err != nil {
			return err
		}
		if err := s.objects.Write(ctx, st.key, b, st.version); err != nil && !errors.Is(err, ErrChanged) {
			return fmt.Errorf("mark run #%d interrupted: %w", st.run.Number, err)
		}
	}
	return nil
}

// Interrupt marks every run of the environment still "running" as
// interrupted, as the next writer of a history does: the leader calls it
// as it starts a reconcile, when no run of the environment can still be
// going. A run recorded meanwhile keeps its result. It reads every run of
// the environment.
func (s *Records) Interrupt(ctx context.Context, client, env string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("mark interrupted runs of %s/%s: %w", client, env, err)
	}
	entries, err := s.runEntries(ctx, Key{Client: client, Env: env})
	if err != nil {
		return fmt.Errorf("mark interrupted runs of %s/%s: %w", client, env, err)
	}
	runs, err := s.readRuns(ctx, entries, func(r history.Run) bool { return r.Client == client && r.Env == env })
	if err != nil {
		return fmt.Errorf("mark interrupted runs of %s/%s: %w", client, env, err)
	}
	if err := s.interrupt(ctx, runs); err != nil {
		return fmt.Errorf("mark interrupted runs of %s/%s: %w", client, env, err)
	}
	return nil
}
