package records

import (
	"context"
	"encoding/json"
	"fmt"
)

// Claim records owner as the owner of every key, in one write of the
// claims object (key → owner). A key another owner holds is a conflict:
// Claim records nothing then and returns each such key with its owner. A
// key whose owner gone reports as gone passes to owner. Two writers never
// both win a key: each write names the version it read (or creates the
// object only if there is none), and the one that read an older object
// reads again.
func (s *Records) Claim(ctx context.Context, owner string, keys []string, gone func(owner string) bool) (map[string]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("claim keys of %s: %w", owner, err)
	}
	k := Key{Kind: Claims}
	var conflicts map[string]string
	err := s.change(ctx, k, func(data []byte, found bool) ([]byte, error) {
		claims := map[string]string{}
		if found && len(data) > 0 {
			if err := json.Unmarshal(data, &claims); err != nil {
				return nil, fmt.Errorf("decode %s: %w", s.objects.Name(k), err)
			}
		}
		conflicts = map[string]string{}
		changed := false
		for _, key := range keys {
			prev := claims[key]
			if prev != "" && prev != owner && !gone(prev) {
				conflicts[key] = prev
				continue
			}
			changed = changed || prev != owner
			claims[key] = owner
		}
		if len(conflicts) > 0 || !changed {
			return nil, errKeep
		}
		return json.Marshal(claims)
	})
	if err != nil {
		return nil, fmt.Errorf("claim keys of %s: %w", owner, err)
	}
	if len(conflicts) > 0 {
		return conflicts, nil
	}
	return nil, nil
}
