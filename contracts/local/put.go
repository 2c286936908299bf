package local

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/strata-iac/strata/contracts"
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
	if err := writeAtomic(path, data); err != nil {
		return fmt.Errorf("put contract %s: %w", key, err)
	}
	return nil
}

// writeAtomic writes data to path through a synced temporary file and a
// rename, creating the directories (0700) on the way.
func writeAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	// CreateTemp makes the file 0600 already; say so for readers.
	if err := tmp.Chmod(0o600); err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	// Make the rename itself durable. This is best effort: some systems
	// cannot sync a directory, and the document is in place all the same.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
