package lineage

import (
	"time"

	"github.com/strata-iac/strata/contracts/shape"
)

// Schema is the schema history of one contract.
type Schema struct {
	Contract string `json:"contract"`
	// Version counts breaking changes: 1 at the first publication.
	Version int `json:"version"`
	// Keys are the keys the contract has now, by section then name.
	Keys []Key `json:"keys"`
	// UpdatedAt is when the key set or a type last changed.
	UpdatedAt time.Time `json:"updatedAt"`
}

// Key is one key of a contract and when it appeared.
type Key struct {
	shape.Field
	// Since is when the key appeared, and SinceVersion the producer's
	// version that published it first; SinceSchema is the schema version
	// then.
	Since        time.Time `json:"since"`
	SinceVersion string    `json:"sinceVersion,omitempty"`
	SinceSchema  int       `json:"sinceSchema"`
}

// Shape is the schema's keys as a shape.
func (s Schema) Shape() shape.Shape {
	var out shape.Shape
	for _, k := range s.Keys {
		out.Fields = append(out.Fields, k.Field)
	}
	return out
}

// Next is the schema after a publication of a contract with shape next,
// by producer version at now. prev is the schema so far, the zero Schema
// when there is none. changed is false when the publication changes no
// key or type, and prev is returned as it is.
func Next(prev Schema, contract string, next shape.Shape, version string, now time.Time) (s Schema, changed bool) {
	now = now.UTC().Truncate(time.Second)
	s = Schema{Contract: contract, Version: prev.Version, UpdatedAt: now}
	if s.Version == 0 {
		s.Version = 1
	} else {
		d := shape.Compare(prev.Shape(), next)
		if d.Empty() && sameTypes(prev.Shape(), next) {
			return prev, false
		}
		if d.Breaking() {
			s.Version++
		}
	}
	for _, f := range next.Fields {
		k := Key{Field: f, Since: now, SinceVersion: version, SinceSchema: s.Version}
		for _, old := range prev.Keys {
			if old.Section == f.Section && old.Name == f.Name {
				k.Since, k.SinceVersion, k.SinceSchema = old.Since, old.SinceVersion, old.SinceSchema
			}
		}
		s.Keys = append(s.Keys, k)
	}
	return s, true
}

// sameTypes reports whether every key of a has the same type in b.
func sameTypes(a, b shape.Shape) bool {
	for _, f := range a.Fields {
		if g, ok := b.Field(f.Section, f.Name); !ok || g.Type != f.Type {
			return false
		}
	}
	return len(a.Fields) == len(b.Fields)
}
