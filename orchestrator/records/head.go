package records

import (
	"context"
	"fmt"

	"github.com/strata-iac/strata/orchestrator/history"
)

// Head returns the stack's head (history.Head): its newest run, its
// newest that is not an unlock and its last good run. It reads the runs
// newest first, back to the last good one (or the oldest, when none is).
func (s *Records) Head(ctx context.Context, client, env, stack string) (history.Head, error) {
	var last, ran, good history.Run
	err := s.scan(ctx, client, env, stack, func(r history.Run) bool {
		if last.Number == 0 {
			last = r
		}
		if ran.Number == 0 && r.Operation != history.OperationUnlock {
			ran = r
		}
		if r.Good() {
			good = r
		}
		return good.Number == 0 || ran.Number == 0
	})
	if err != nil {
		return history.Head{}, fmt.Errorf("head of %s/%s/%s: %w", client, env, stack, err)
	}
	return history.HeadOf(last, ran, good), nil
}
