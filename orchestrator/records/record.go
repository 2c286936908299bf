package records

import (
	"context"
	"errors"
	"fmt"

	"github.com/strata-iac/strata/orchestrator/history"
)

// errNoRun is a Record of a run that Begin did not create.
var errNoRun = errors.New("no such run: Begin it first")

// Record stores r over the run with its number, which Begin must have
// created. It wins over a writer that marked the run interrupted
// meanwhile: the run's own writer knows how it ended. Each write names the
// version it read, so it never brings back a run retention deleted.
func (s *Records) Record(ctx context.Context, r history.Run) error {
	if err := history.CheckKeys(ctx, r.Client, r.Env, r.Stack); err != nil {
		return fmt.Errorf("record run %s #%d: %w", stackKey(r), r.Number, err)
	}
	if r.Number <= 0 {
		return fmt.Errorf("record run %s #%d: %w", stackKey(r), r.Number, errNoRun)
	}
	b, err := encodeRun(r)
	if err != nil {
		return fmt.Errorf("record run %s #%d: %w", stackKey(r), r.Number, err)
	}
	err = s.change(ctx, runKey(r.Client, r.Env, r.Stack, r.Number), func(_ []byte, found bool) ([]byte, error) {
		if !found {
			return nil, errNoRun
		}
		return b, nil
	})
	if err != nil {
		return fmt.Errorf("record run %s #%d: %w", stackKey(r), r.Number, err)
	}
	return nil
}
