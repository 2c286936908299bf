package lineage

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"

	"github.com/strata-iac/strata/orchestrator/internal/atomicfile"
	"github.com/strata-iac/strata/orchestrator/statedir"
)

// Store keeps the schemas of one environment's contracts.
type Store struct {
	stateDir, client, env string
}

// New returns the store of client/env's schemas under stateDir.
func New(stateDir, client, env string) *Store {
	return &Store{stateDir: stateDir, client: client, env: env}
}

// Get returns the schema of a contract; ok is false when it has none yet.
func (s *Store) Get(contract string) (Schema, bool, error) {
	p, err := s.path(contract)
	if err != nil {
		return Schema{}, false, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return Schema{}, false, nil
	}
	if err != nil {
		return Schema{}, false, fmt.Errorf("read schema of contract %s: %w", contract, err)
	}
	var sc Schema
	if err := json.Unmarshal(b, &sc); err != nil {
		return Schema{}, false, fmt.Errorf("read schema of contract %s: %s: %w", contract, p, err)
	}
	return sc, true, nil
}

// Put writes the schema of its contract.
func (s *Store) Put(sc Schema) error {
	p, err := s.path(sc.Contract)
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(sc, "", "  ")
	if err != nil {
		return fmt.Errorf("write schema of contract %s: %w", sc.Contract, err)
	}
	if err := atomicfile.Write(p, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("write schema of contract %s: %w", sc.Contract, err)
	}
	return nil
}

// path is the file of a contract's schema. The name is escaped, so that
// no contract name reaches outside the store's directory.
func (s *Store) path(contract string) (string, error) {
	name := url.PathEscape(contract)
	if name == "" || name == "." || name == ".." {
		return "", fmt.Errorf("schema of contract %q: not a contract name", contract)
	}
	p, err := statedir.Join(s.stateDir, statedir.ContractSchemas, s.client, s.env, name+".json")
	if err != nil {
		return "", fmt.Errorf("schema of contract %q: %w", contract, err)
	}
	return p, nil
}
