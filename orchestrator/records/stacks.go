package records

import (
	"context"
	"fmt"
	"slices"
)

// Stacks returns every stack of the environment that has runs, sorted:
// the stacks of the keys of the environment's runs, which are listed, not
// read.
func (s *Records) Stacks(ctx context.Context, client, env string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("list stacks of %s/%s: %w", client, env, err)
	}
	entries, err := s.runEntries(ctx, Key{Client: client, Env: env})
	if err != nil {
		return nil, fmt.Errorf("list stacks of %s/%s: %w", client, env, err)
	}
	var stacks []string
	for _, e := range entries {
		if e.Key.Client == client && e.Key.Env == env {
			stacks = append(stacks, e.Key.Stack)
		}
	}
	slices.Sort(stacks)
	return slices.Compact(stacks), nil
}
