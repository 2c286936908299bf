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
	// generating are what builds read of Kustomizations' specs, by key
	// (generatingKey): a fleet's Kustomizations mostly carry the same
	// patches, patched into each by the one that applies them.
	generating map[string]*generating
	// strings are the words objects repeat (apiVersion, kind, namespace,
	// a source reference's kind and namespace, the ConfigMaps and Secrets
	// substituted from), one copy of each: encoding/json allocates every
	// string it decodes, and at 10,000 stacks those copies were 2 MB of
	// the heap at the end of the load. Object names, which a fleet may
	// give each stack its own (an OCIRepository per stack), are not kept.
	strings map[string]string
}

// str returns the string kept that equals v, keeping v when none does. A
// nil stringMaps keeps nothing and returns v.
func (s *stringMaps) str(v string) string {
	if s == nil || v == "" {
		return v
	}
	if kept, ok := s.strings[v]; ok {
		return kept
	}
	if s.strings == nil {
		s.strings = map[string]string{}
	}
	s.strings[v] = v
	return v
}

// internGenerating returns the generating kept that equals g, keeping g
// when none does. A nil stringMaps keeps nothing and returns g; so does a
// nil g.
func (s *stringMaps) internGenerating(g *generating) *generating {
	if s == nil || g == nil {
		return g
	}
	if s.generating == nil {
		s.generating = map[string]*generating{}
	}
	key := generatingKey(g)
	if kept, ok := s.generating[key]; ok {
		return kept
	}
	s.generating[key] = g
	return g
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

// share interns what a decoded object holds that others hold too: its
// apiVersion, kind, namespace, labels and annotations, the kind and
// namespace of a Kustomization's or a Terraform object's source
// reference, a Kustomization's dependencies' namespaces, the kinds and
// names it substitutes from, spec.commonMetadata, postBuild.substitute and what
// its builds read of its spec. It is done once the object is decoded,
// since encoding/json writes into the maps it is given.
func (s *stringMaps) share(d *decoded) {
	o := d.object()
	if o == nil {
		return
	}
	s.meta(&o.meta)
	if tf := d.Terraform; tf != nil && tf.Spec != nil {
		if r := tf.Spec.SourceRef; r != nil {
			r.Kind, r.Namespace = s.str(r.Kind), s.str(r.Namespace)
		}
	}
	k := d.Kustomization
	if k == nil {
		return
	}
	if r := k.Spec.SourceRef; r != nil {
		r.Kind, r.Namespace = s.str(r.Kind), s.str(r.Namespace)
	}
	for i := range k.Spec.DependsOn {
		k.Spec.DependsOn[i].Namespace = s.str(k.Spec.DependsOn[i].Namespace)
	}
	if c := k.Spec.CommonMetadata; c != nil {
		c.Labels = s.intern(c.Labels)
		c.Annotations = s.intern(c.Annotations)
	}
	if b := k.Spec.PostBuild; b != nil {
		b.Substitute = s.intern(b.Substitute)
		for i := range b.SubstituteFrom {
			f := &b.SubstituteFrom[i]
			f.Kind, f.Name = s.str(f.Kind), s.str(f.Name)
		}
	}
	k.gen = s.internGenerating(k.gen)
}

// meta interns an object's apiVersion, kind, namespace, labels and
// annotations.
func (s *stringMaps) meta(m *meta) {
	m.APIVersion, m.Kind = s.str(m.APIVersion), s.str(m.Kind)
	m.Metadata.Namespace = s.str(m.Metadata.Namespace)
	m.Metadata.Labels = s.intern(m.Metadata.Labels)
	m.Metadata.Annotations = s.intern(m.Metadata.Annotations)
}
