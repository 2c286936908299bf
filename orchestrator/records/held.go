package records

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/history"
)

// HeldPlan returns a held plan, its files written out under Config.Dir
// (Held.Dir) for tofu to apply and people to read.
func (s *Records) HeldPlan(ctx context.Context, client, env, stack, id string) (approval.Held, error) {
	if err := approval.ValidID(id); err != nil {
		return approval.Held{}, fmt.Errorf("read held plan of stack %s: %w", stack, err)
	}
	if err := history.CheckKeys(ctx, client, env, stack); err != nil {
		return approval.Held{}, fmt.Errorf("read held plan %s of stack %s: %w", id, stack, err)
	}
	k := planKey(client, env, stack, id)
	data, _, err := s.objects.Read(ctx, k)
	if errors.Is(err, ErrNotFound) {
		return approval.Held{}, fmt.Errorf("read held plan %s of stack %s: %w", id, stack, approval.ErrNoHeldPlan)
	}
	if err != nil {
		return approval.Held{}, fmt.Errorf("read held plan %s of stack %s: %w", id, stack, err)
	}
	if s.dir == "" {
		return approval.Held{}, fmt.Errorf("read held plan %s of stack %s: %w", id, stack, s.errNoDir())
	}
	h, err := s.held(ctx, k, data)
	if err != nil {
		return approval.Held{}, fmt.Errorf("read held plan %s of stack %s: %w", id, stack, err)
	}
	return h, nil
}

// HeldPlans lists a stack's held plans, newest first. Their files are
// written out when the records have a Dir; without one (a command that
// only lists or approves) they are not read, and Held.Dir is "".
func (s *Records) HeldPlans(ctx context.Context, client, env, stack string) ([]approval.Held, error) {
	if err := history.CheckKeys(ctx, client, env, stack); err != nil {
		return nil, fmt.Errorf("list held plans of stack %s: %w", stack, err)
	}
	entries, err := s.objects.List(ctx, Key{Kind: Plan, Client: client, Env: env, Stack: stack})
	if err != nil {
		return nil, fmt.Errorf("list held plans of stack %s: %w", stack, err)
	}
	var out []approval.Held
	for _, e := range entries {
		if approval.ValidID(e.Key.Plan) != nil {
			continue
		}
		if e.Version == "" {
			e.Data, e.Version, err = s.objects.Read(ctx, e.Key)
			// Files without a record are a plan being held, or released.
			if errors.Is(err, ErrNotFound) {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("list held plans of stack %s: %w", stack, err)
			}
		}
		h, err := s.held(ctx, e.Key, e.Data)
		if err != nil {
			return nil, fmt.Errorf("list held plans of stack %s: plan %s: %w", stack, e.Key.Plan, err)
		}
		// The key selects the stack; the names the record keeps exactly
		// confirm it.
		if h.Client == client && h.Env == env && h.Stack == stack {
			out = append(out, h)
		}
	}
	slices.SortFunc(out, func(a, b approval.Held) int { return b.HeldAt.Compare(a.HeldAt) })
	return out, nil
}

// held decodes a held plan's record and, when the records have a Dir,
// reads its files and writes them out there.
func (s *Records) held(ctx context.Context, k Key, data []byte) (approval.Held, error) {
	rec, err := s.decodePlan(k, data)
	if err != nil {
		return approval.Held{}, err
	}
	h := rec.Held
	if s.dir == "" {
		return h, nil
	}
	files, err := s.readFiles(ctx, k, rec)
	if err != nil {
		return approval.Held{}, err
	}
	if h.Dir, err = s.writeOut(h, files); err != nil {
		return approval.Held{}, err
	}
	return h, nil
}
