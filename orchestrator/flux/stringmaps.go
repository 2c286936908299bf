package flux

import (
	"hash/maphash"
	"maps"
)

// stringMaps holds one copy of each distinct map of strings the objects
// of a load carry: their labels and annotations, and a Kustomization's
// spec.commonMetadata and postBuild.substitute. Objects of one
// environment mostly carry the same few (every stack's strata.dev/layer,
// a Kustomization's common labels on everything it renders, the same
// variables substituted into every stack), and at 10,000 stacks a map of
// its own for each was a tenth of the load's heap. A map it hands out is
// shared: nothing may write to it.
type stringMaps struct {
	seed maphash.Seed
	// byHash are the maps kept, by the sum of their entries' hashes,
	// which does not depend on the order a map is walked in.
	byHash map[uint64][]map[string]string
}

// intern returns the map kept that equals m, keeping m when none does.
// A nil stringMaps keeps nothing and returns m; so does an empty m.
func (s *stringMaps) intern(m map[string]string) map[string]string {
	if s == nil || len(m) == 0 {
		return m
	}
	if s.byHash == nil {
		s.seed = maphash.MakeSeed()
		s.byHash = map[uint64][]map[string]string{}
	}
	var sum uint64
	var h maphash.Hash
	h.SetSeed(s.seed)
	for k, v := range m {
		h.Reset()
		h.WriteString(k)
		h.WriteByte(0)
		h.WriteString(v)
		sum += h.Sum64()
	}
	for _, kept := range s.byHash[sum] {
		if maps.Equal(kept, m) {
			return kept
		}
	}
	s.byHash[sum] = append(s.byHash[sum], m)
	return m
}

// meta interns an object's labels and annotations.
func (s *stringMaps) meta(m *meta) {
	m.Metadata.Labels = s.intern(m.Metadata.Labels)
	m.Metadata.Annotations = s.intern(m.Metadata.Annotations)
}
