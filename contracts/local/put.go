package local

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/internal/atomicfile"
)

// Put checks the document against the schema and writes it at key as
// indented JSON, readable by the owner only. The write is atomic: the
// document goes to a temporary file in the same directory, is synced, and
// is renamed over the old one, so a reader or a crash sees the old
// document or the new one, never half of one.
func (s *Store) Put(ctx context.Context, key string, d contracts.Document) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("put contract %s: %w", key, err)
	}
	path, err := s.path(key)
	if err != nil {
		return fmt.Errorf("put contract: %w", err)
	}
	data, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return fmt.Errorf("put contract %s: encode: %w", key, err)
	}
	if err := contracts.Validate(d); err != nil {
		return fmt.Errorf("put contract %s: %w", key, err)
	}
	data = append(data, '\n')
	if err := atomicfile.Write(path, data, 0o600); err != nil {
		return fmt.Errorf("put contract %s: %w", key, err)
	}
	return nil
}
