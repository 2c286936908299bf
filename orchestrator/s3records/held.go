package s3records

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/history"
)

// HeldPlan returns a held plan, its files written out under Config.Dir
// (Held.Dir) for tofu to apply and people to read.
func (s *Store) HeldPlan(ctx context.Context, client, env, stack, id string) (approval.Held, error) {
	if err := approval.ValidID(id); err != nil {
		return approval.Held{}, fmt.Errorf("read held plan of stack %s: %w", stack, err)
	}
	if err := history.CheckKeys(ctx, client, env, stack); err != nil {
		return approval.Held{}, fmt.Errorf("read held plan %s of stack %s: %w", id, stack, err)
	}
	rec, _, ok, err := s.readRecord(ctx, client, env, stack, id)
	if err != nil {
		return approval.Held{}, fmt.Errorf("read held plan %s of stack %s: %w", id, stack, err)
	}
	if !ok {
		return approval.Held{}, fmt.Errorf("read held plan %s of stack %s: %w", id, stack, approval.ErrNoHeldPlan)
	}
	h := rec.Held
	if h.Dir, err = s.files(ctx, rec); err != nil {
		return approval.Held{}, fmt.Errorf("read held plan %s of stack %s: %w", id, stack, err)
	}
	return h, nil
}

// HeldPlans lists a stack's held plans, newest first. Their files are
// written out when the Store has a Dir; without one (a command that only
// lists or approves) they are not read, and Held.Dir is "".
func (s *Store) HeldPlans(ctx context.Context, client, env, stack string) ([]approval.Held, error) {
	if err := history.CheckKeys(ctx, client, env, stack); err != nil {
		return nil, fmt.Errorf("list held plans of stack %s: %w", stack, err)
	}
	prefix := s.stackHeld(client, env, stack)
	_, dirs, err := s.list(ctx, prefix, true)
	if err != nil {
		return nil, fmt.Errorf("list held plans of stack %s: %w", stack, err)
	}
	var out []approval.Held
	for _, d := range dirs {
		id := strings.TrimSuffix(strings.TrimPrefix(d, prefix), "/")
		if approval.ValidID(id) != nil {
			continue
		}
		rec, _, ok, err := s.readRecord(ctx, client, env, stack, id)
		if err != nil {
			return nil, fmt.Errorf("list held plans of stack %s: %w", stack, err)
		}
		// Files without a record are a plan being held, or released.
		if !ok {
			continue
		}
		h := rec.Held
		if s.dir != "" {
			if h.Dir, err = s.files(ctx, rec); err != nil {
				return nil, fmt.Errorf("list held plans of stack %s: plan %s: %w", stack, id, err)
			}
		}
		out = append(out, h)
	}
	slices.SortFunc(out, func(a, b approval.Held) int { return b.HeldAt.Compare(a.HeldAt) })
	return out, nil
}
