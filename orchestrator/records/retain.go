package records

import (
	"context"
	"fmt"

	"github.com/strata-iac/strata/orchestrator/history"
)

// retain deletes the runs beyond the newest Keep, given the runs before
// the one just begun (newest first), as history.Expired picks them.
func (s *Records) retain(ctx context.Context, before []stored) error {
	for _, i := range history.Expired(before, func(st stored) history.Run { return st.run }, s.keep) {
		if err := s.objects.Delete(ctx, before[i].key); err != nil {
			return fmt.Errorf("delete run #%d beyond the %d kept: %w", before[i].run.Number, s.keep, err)
		}
	}
	return nil
}
