package s3records

import (
	"context"
	"fmt"
)

// retain deletes the runs beyond the newest Keep, given the runs before
// the one just begun (newest first), but never the newest good apply,
// which the next run's cause and the removal of a stack start from.
func (s *Store) retain(ctx context.Context, before []stored) error {
	// The run just begun is one of the Keep.
	if len(before) < s.keep {
		return nil
	}
	good := -1
	for i, st := range before {
		if st.run.Good() {
			good = i
			break
		}
	}
	for i := s.keep - 1; i < len(before); i++ {
		if i == good {
			continue
		}
		if err := s.del(ctx, before[i].key); err != nil {
			return fmt.Errorf("delete run #%d beyond the %d kept: %w", before[i].run.Number, s.keep, err)
		}
	}
	return nil
}
