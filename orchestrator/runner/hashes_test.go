package runner

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/environment"
	"github.com/strata-iac/strata/orchestrator/hashkey"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/source"
)

// sampleInputs are the inputs of a stack with a private variable, a
// contract with a private part and a derived variable.
func sampleInputs() inputs {
	return inputs{
		spec: []specField{
			{"digest", "sha256:abc"}, {"version", "0.1.0"}, {"backend", ""},
			{"produces", "net vpc_id"}, {"consumes", "base as base"},
		},
		ownVars: map[string][]byte{"app_version": []byte(`"0.1.0"`), "password": []byte(`"hunter2"`)},
		upstreams: map[string][]byte{
			"base": []byte(`{"installed":true,"version":"0.1.0","stack":"base","public":{},"private":{"token":"t"}}`),
		},
		derived: map[string][]byte{"values": []byte(`{"a":1}`)},
	}
}

// TestLegacyHashes pins the plain hashes to those strata recorded before
// it keyed them (computed apart, from the format then), so that a record
// of that time is compared with the same hashes.
func TestLegacyHashes(t *testing.T) {
	in := sampleInputs()
	in.hash(bytes.Repeat([]byte{7}, hashkey.Size))
	want := hashes{
		vars:        map[string]string{"app_version": "8e633b4f41f99d4c", "password": "4ddbb67bf993867e"},
		upstreams:   map[string]string{"base": "sha256:4e62eeb5ee5d0bc3f101ca6a704d02f95b057745bace6241156a6d36def9eb09"},
		fingerprint: "sha256:657df34b06a1713208eb8319abf9b0c8f46b27dd56ad66e96ba8c272310ce69f",
	}
	got, known := in.against(history.Run{})
	if !known {
		t.Fatalf("against(a record with no scheme) = not known, want the plain hashes")
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(hashes{})); diff != "" {
		t.Errorf("legacy hashes diff (-want +got):\n%s", diff)
	}
}

// TestKeyedHashes: no recorded hash is a plain hash of a private value,
// and each key gives other hashes.
func TestKeyedHashes(t *testing.T) {
	keyA, keyB := bytes.Repeat([]byte{1}, hashkey.Size), bytes.Repeat([]byte{2}, hashkey.Size)
	a, b := sampleInputs(), sampleInputs()
	a.hash(keyA)
	b.hash(keyB)
	sum := sha256.Sum256([]byte(`"hunter2"`))
	plainPassword := hex.EncodeToString(sum[:])
	recorded := strings.Join([]string{a.varHashes["password"], a.upstreamHashes["base"], a.fingerprint}, " ")
	legacy := a.under(plain)
	for _, h := range []string{plainPassword[:16], legacy.vars["password"], legacy.upstreams["base"], legacy.fingerprint} {
		if strings.Contains(recorded, strings.TrimPrefix(h, "sha256:")) {
			t.Errorf("recorded hashes %q hold the plain hash %s", recorded, h)
		}
	}
	if !strings.HasPrefix(a.fingerprint, "hmac-sha256:") {
		t.Errorf("fingerprint = %s, want an hmac-sha256 one", a.fingerprint)
	}
	if a.fingerprint == b.fingerprint || a.varHashes["password"] == b.varHashes["password"] {
		t.Errorf("two keys gave the same hashes: %s", a.fingerprint)
	}
	if a.scheme != "hmac-sha256/"+hashkey.ID(keyA) {
		t.Errorf("scheme = %q, want hmac-sha256/%s", a.scheme, hashkey.ID(keyA))
	}
}

// TestUpToDateAcrossSchemes: a record of plain hashes (before the upgrade)
// is compared under its own scheme, so an unchanged stack is still up to
// date (no plan, no apply) and a changed variable is still named; a
// record under another key (the key was lost) is planned, with cause
// rehashed.
func TestUpToDateAcrossSchemes(t *testing.T) {
	key := bytes.Repeat([]byte{1}, hashkey.Size)
	in := sampleInputs()
	in.hash(key)
	other := sampleInputs()
	other.hash(bytes.Repeat([]byte{9}, hashkey.Size))
	changed := sampleInputs()
	changed.ownVars["password"] = []byte(`"hunter3"`)
	changed.hash(key)
	now := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	record := func(h hashes, scheme string) history.Run {
		return history.Run{
			Number: 4, Operation: history.OperationApply, Result: history.ResultApplied, StartedAt: now.Add(-time.Minute),
			ToVersion: "0.1.0", Digest: "sha256:abc",
			Fingerprint: h.fingerprint, Inputs: h.vars, Upstreams: h.upstreams, Hashes: scheme,
		}
	}
	tests := []struct {
		name      string
		prev      history.Run
		upToDate  bool
		wantCause cause
	}{
		{"same key", record(hashes{vars: in.varHashes, upstreams: in.upstreamHashes, fingerprint: in.fingerprint}, in.scheme), true, cause{}},
		{"plain hashes of before the upgrade", record(in.under(plain), ""), true, cause{}},
		{"plain hashes, a variable changed since", record(changed.under(plain), ""), false,
			cause{CauseVariables, "variables changed: password"}},
		{"another key", record(hashes{vars: other.varHashes, upstreams: other.upstreamHashes, fingerprint: other.fingerprint}, other.scheme), false,
			cause{CauseRehashed, "the hash key changed since run #4 (lost or replaced): what changed cannot be named"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := New(Config{DriftInterval: time.Hour, Now: func() time.Time { return now }, HashKey: key})
			req := Request{Operation: history.OperationApply, Stack: &environment.Stack{Name: "net"},
				Artifact: source.Artifact{Version: "0.1.0", Digest: "sha256:abc"}}
			st := r.newState(req, nil)
			st.in, st.prev, st.hasPrev = in, tt.prev, true
			if got, why := r.upToDate(t.Context(), st); got != tt.upToDate {
				t.Errorf("upToDate(%q) = %v (%s), want %v", tt.name, got, why, tt.upToDate)
			}
			got := classify(tt.prev, true, req, in, false)
			if diff := cmp.Diff(tt.wantCause, got, cmp.AllowUnexported(cause{})); diff != "" {
				t.Errorf("classify(%q) diff (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}
