package lineage

import (
	"time"

	"github.com/strata-iac/strata/contracts"
	"github.com/strata-iac/strata/contracts/shape"
)

// Record records a publication of contract: the document d, published by
// the producer's version at now. It returns the schema now in force.
func (s *Store) Record(contract string, d contracts.Document, now time.Time) (Schema, error) {
	prev, _, err := s.Get(contract)
	if err != nil {
		return Schema{}, err
	}
	next, changed := Next(prev, contract, shape.Of(d), d.Version, now)
	if !changed {
		return prev, nil
	}
	return next, s.Put(next)
}
