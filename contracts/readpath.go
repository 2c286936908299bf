package contracts

import (
	"context"
	"errors"
	"fmt"
)

// PathReader is a store that reads every document under a prefix at once,
// as the ssm and s3 stores do.
type PathReader interface {
	GetByPath(ctx context.Context, prefix string) (map[string]Document, error)
}

// ReadPath reads every document under prefix from the store, keyed by its
// full key: with GetByPath when the store has it, else with List and Get.
// Feed the result to Select to read a regex-filtered set, as the
// ssm_json_regex module does. A document deleted between the listing and
// its read is left out.
func ReadPath(ctx context.Context, s Store, prefix string) (map[string]Document, error) {
	if r, ok := s.(PathReader); ok {
		return r.GetByPath(ctx, prefix)
	}
	keys, err := s.List(ctx, prefix)
	if err != nil {
		return nil, fmt.Errorf("read contracts under %s: %w", prefix, err)
	}
	docs := make(map[string]Document, len(keys))
	for _, key := range keys {
		d, err := s.Get(ctx, key)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read contracts under %s: %w", prefix, err)
		}
		docs[key] = d
	}
	return docs, nil
}
