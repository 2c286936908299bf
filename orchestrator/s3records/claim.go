package s3records

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// Claim records owner as the owner of every key, in one write of the
// claims object (claims.json, key → owner). A key another owner holds is
// a conflict: Claim records nothing then and returns each such key with
// its owner. A key whose owner gone reports as gone passes to owner. Two
// writers never both win a key: each write names the ETag it read (or
// that there was none), and the one that read an older object reads
// again.
func (s *Store) Claim(ctx context.Context, owner string, keys []string, gone func(owner string) bool) (map[string]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("claim keys of %s: %w", owner, err)
	}
	key := s.claimsKey()
	for range maxWriteTries {
		cur, ok, err := s.get(ctx, key)
		if err != nil {
			return nil, fmt.Errorf("claim keys of %s: %w", owner, err)
		}
		claims := map[string]string{}
		cond := absent
		if ok {
			if err := json.Unmarshal(cur.data, &claims); err != nil {
				return nil, fmt.Errorf("claim keys of %s: decode s3://%s/%s: %w", owner, s.bucket, key, err)
			}
			cond = cur.etag
		}
		conflicts := map[string]string{}
		changed := false
		for _, k := range keys {
			prev := claims[k]
			if prev != "" && prev != owner && !gone(prev) {
				conflicts[k] = prev
				continue
			}
			changed = changed || prev != owner
			claims[k] = owner
		}
		if len(conflicts) > 0 {
			return conflicts, nil
		}
		if !changed {
			return nil, nil
		}
		b, err := json.Marshal(claims)
		if err != nil {
			return nil, fmt.Errorf("claim keys of %s: %w", owner, err)
		}
		err = s.put(ctx, key, b, cond)
		if errors.Is(err, errChanged) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("claim keys of %s: %w", owner, err)
		}
		return nil, nil
	}
	return nil, fmt.Errorf("claim keys of %s: other writers changed the claims %d times in a row; try again", owner, maxWriteTries)
}
