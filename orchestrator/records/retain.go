package records

import (
	"context"
	"fmt"
	"time"

	"github.com/strata-iac/strata/orchestrator/history"
)

// policy is how the runs of one environment are kept (Retain).
type policy struct {
	keep history.Retention
	gone func(stack string, number int)
}

// Retain sets how the runs of the environment client/env are kept from
// now on, as history.Store.Retain does: until it is called, the newest
// Config.Keep runs of each stack, by count alone (each run is an object
// of the store). gone, when not nil, is called with each run Begin
// deletes, once deleted.
func (s *Records) Retain(client, env string, keep history.Retention, gone func(stack string, number int)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.policies == nil {
		s.policies = map[[2]string]policy{}
	}
	s.policies[[2]string{client, env}] = policy{keep: keep, gone: gone}
}

func (s *Records) policy(client, env string) policy {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.policies[[2]string{client, env}]; ok && p.keep.Check() == nil {
		return p
	}
	return policy{keep: history.Retention{Runs: s.keep}}
}

// retain deletes the runs that the environment's retention no longer
// keeps, given the runs before the one just begun (newest first), which
// started at now, as history.Expired picks them.
func (s *Records) retain(ctx context.Context, client, env string, before []stored, now time.Time) error {
	p := s.policy(client, env)
	for _, i := range history.Expired(before, func(st stored) history.Run { return st.run }, p.keep, now) {
		if err := s.objects.Delete(ctx, before[i].key); err != nil {
			return fmt.Errorf("delete run #%d, which %s no longer holds: %w", before[i].run.Number, p.keep, err)
		}
		if p.gone != nil {
			p.gone(before[i].run.Stack, before[i].run.Number)
		}
	}
	return nil
}
