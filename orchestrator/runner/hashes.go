package runner

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"maps"
	"slices"

	"github.com/strata-iac/strata/orchestrator/hashkey"
	"github.com/strata-iac/strata/orchestrator/history"
)

// specField is one field of a stack's spec the fingerprint covers.
type specField struct{ name, value string }

// hashes are the hashes of a run's inputs, under one scheme.
type hashes struct {
	vars        map[string]string
	upstreams   map[string]string
	spec        map[string]string
	fingerprint string
}

// scheme is a way to hash inputs: a hash function, and the prefix of the
// full hashes it gives.
type scheme struct {
	prefix  string
	newHash func() hash.Hash
}

func (s scheme) sum(b []byte) []byte {
	h := s.newHash()
	h.Write(b)
	return h.Sum(nil)
}

// short is the hash of one variable: 8 bytes, in hex.
func (s scheme) short(b []byte) string { return hex.EncodeToString(s.sum(b)[:8]) }

// full is the hash of one contract's content.
func (s scheme) full(b []byte) string { return s.prefix + hex.EncodeToString(s.sum(b)) }

// plain is how strata hashed inputs before it keyed them.
var plain = scheme{prefix: "sha256:", newHash: sha256.New}

// keyed hashes with HMAC-SHA256 under key.
func keyed(key []byte) scheme {
	return scheme{prefix: "hmac-sha256:", newHash: func() hash.Hash { return hmac.New(sha256.New, key) }}
}

// hash computes the run's hashes under key, and the plain ones an older
// record is compared with.
func (in *inputs) hash(key []byte) {
	k := in.under(keyed(key))
	in.varHashes, in.upstreamHashes, in.specHashes, in.fingerprint = k.vars, k.upstreams, k.spec, k.fingerprint
	in.scheme = "hmac-sha256/" + hashkey.ID(key)
}

// under hashes the inputs with s, as readInputs always has: the spec
// fields, the variables' and the contracts' hashes, then what the
// contracts give the stack's variables.
func (in *inputs) under(s scheme) hashes {
	h := hashes{
		vars:      make(map[string]string, len(in.ownVars)),
		upstreams: make(map[string]string, len(in.upstreams)),
	}
	for k, b := range in.ownVars {
		h.vars[k] = s.short(b)
	}
	for k, b := range in.upstreams {
		h.upstreams[k] = s.full(b)
	}
	fp := s.newHash()
	writeField := func(k, v string) { fmt.Fprintf(fp, "%s=%q\n", k, v) }
	for _, f := range in.spec {
		writeField(f.name, f.value)
	}
	for _, k := range slices.Sorted(maps.Keys(h.vars)) {
		writeField("var."+k, h.vars[k])
	}
	for _, k := range slices.Sorted(maps.Keys(h.upstreams)) {
		writeField("contract."+k, h.upstreams[k])
	}
	// What the contracts give the stack's variables, so that a change
	// there re-plans it even where its reads are not known.
	for _, k := range slices.Sorted(maps.Keys(in.derived)) {
		writeField("derived."+k, s.short(in.derived[k]))
	}
	// Only the Terraform fields that are set are written, so that a
	// stack that sets none keeps the fingerprint it had before strata
	// knew them.
	if len(in.specFields) > 0 {
		h.spec = make(map[string]string, len(in.specFields))
		for k, b := range in.specFields {
			h.spec[k] = s.short(b)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(h.spec)) {
		writeField(k, h.spec[k])
	}
	h.fingerprint = s.prefix + hex.EncodeToString(fp.Sum(nil))
	return h
}

// against returns the hashes to compare with prev's: the keyed ones when
// prev's are under the same key, the plain ones when prev was recorded
// before strata keyed its hashes. known is false when prev's hashes are
// under another key (the key was lost or replaced): nothing can then be
// compared, and the stack is planned.
func (in inputs) against(prev history.Run) (h hashes, known bool) {
	switch prev.Hashes {
	case in.scheme:
		return hashes{vars: in.varHashes, upstreams: in.upstreamHashes, spec: in.specHashes, fingerprint: in.fingerprint}, true
	case "":
		// Recorded before strata keyed its hashes: hashed plain now,
		// for the few records that need it, not for every run.
		return in.under(plain), true
	}
	return hashes{}, false
}

// sameAs reports whether no input changed since prev.
func (in inputs) sameAs(prev history.Run) bool {
	h, known := in.against(prev)
	return known && h.fingerprint == prev.Fingerprint
}

// hashKey is the key of the run's hashes: Config.HashKey, or the one
// kept in the state directory, created on first use.
func (r *Runner) hashKey() ([]byte, error) {
	if r.cfg.HashKey != nil {
		return r.cfg.HashKey, nil
	}
	r.keyMu.Lock()
	defer r.keyMu.Unlock()
	if r.key == nil {
		key, err := hashkey.Load(r.cfg.StateDir)
		if err != nil {
			return nil, err
		}
		r.key = key
	}
	return r.key, nil
}
