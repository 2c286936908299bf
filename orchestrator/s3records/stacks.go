package s3records

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Stacks returns every stack of the environment that has runs, sorted:
// the names of the levels under the environment's runs, which one list
// request gives.
func (s *Store) Stacks(ctx context.Context, client, env string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("list stacks of %s/%s: %w", client, env, err)
	}
	prefix := s.envRuns(client, env)
	_, dirs, err := s.list(ctx, prefix, true)
	if err != nil {
		return nil, fmt.Errorf("list stacks of %s/%s: %w", client, env, err)
	}
	stacks := make([]string, 0, len(dirs))
	for _, d := range dirs {
		name, err := unsegment(strings.TrimSuffix(strings.TrimPrefix(d, prefix), "/"))
		if err != nil {
			return nil, fmt.Errorf("list stacks of %s/%s: object prefix %s: %w", client, env, d, err)
		}
		stacks = append(stacks, name)
	}
	slices.Sort(stacks)
	return stacks, nil
}
