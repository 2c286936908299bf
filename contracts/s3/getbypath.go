package s3

import (
	"context"
	"errors"
	"fmt"

	"github.com/strata-iac/strata/contracts"
)

// GetByPath reads every document under prefix, keyed by its full key: the
// objects List finds, each read with Get. prefix is a key path as for
// List. A document that disappears between the listing and its read is
// left out; an object under prefix that is not a contract document is an
// error naming it.
func (s *Store) GetByPath(ctx context.Context, prefix string) (map[string]contracts.Document, error) {
	keys, err := s.List(ctx, prefix)
	if err != nil {
		return nil, err
	}
	docs := make(map[string]contracts.Document, len(keys))
	for _, key := range keys {
		d, err := s.Get(ctx, key)
		if errors.Is(err, contracts.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("get contracts under %s: %w", prefix, err)
		}
		docs[key] = d
	}
	return docs, nil
}
