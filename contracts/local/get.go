package local

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/strata-iac/strata/contracts"
)

// Get reads the document at key; the error wraps contracts.ErrNotFound
// when there is none.
func (s *Store) Get(ctx context.Context, key string) (contracts.Document, error) {
	if err := ctx.Err(); err != nil {
		return contracts.Document{}, fmt.Errorf("get contract %s: %w", key, err)
	}
	path, err := s.path(key)
	if err != nil {
		return contracts.Document{}, fmt.Errorf("get contract: %w", err)
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return contracts.Document{}, fmt.Errorf("get contract %s: %w", key, contracts.ErrNotFound)
	}
	if err != nil {
		return contracts.Document{}, fmt.Errorf("get contract %s: %w", key, err)
	}
	var d contracts.Document
	if err := json.Unmarshal(data, &d); err != nil {
		return contracts.Document{}, fmt.Errorf("get contract %s: decode %s: %w", key, path, err)
	}
	if d.Public == nil {
		d.Public = map[string]any{}
	}
	if d.Private == nil {
		d.Private = map[string]any{}
	}
	return d, nil
}
