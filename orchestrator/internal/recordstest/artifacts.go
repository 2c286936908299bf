package recordstest

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"testing"

	"github.com/strata-iac/strata/orchestrator/records"
)

// artifactOf is size random bytes and their digest.
func artifactOf(t *testing.T, size int) ([]byte, string) {
	t.Helper()
	b := make([]byte, size)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return b, "sha256:" + hex.EncodeToString(sum[:])
}

// content is an artifact's content as KeepArtifact asks for it.
func content(b []byte) func(context.Context) ([]byte, error) {
	return func(context.Context) ([]byte, error) { return b, nil }
}

// testKeepArtifact: a stack keeps one artifact, in as many parts as the
// store needs (a cluster's objects are bounded), read back whole and
// checked; keeping another drops the first, another stack's stays, and
// DropArtifacts drops the stack's. Content that is not the digest's is
// refused.
func testKeepArtifact(t *testing.T, o records.Objects) {
	ctx := context.Background()
	r, err := records.New(o, records.Config{})
	if err != nil {
		t.Fatal(err)
	}
	size := 1 << 20
	if n := o.PartBytes(); n > 0 {
		size = 2*n + n/2 // three parts
	}
	first, firstDigest := artifactOf(t, size)
	second, secondDigest := artifactOf(t, 4<<10)
	if _, err := r.KeptArtifact(ctx, "acme", "dev", "network", firstDigest); !errors.Is(err, records.ErrNotFound) {
		t.Errorf("KeptArtifact(network) before any = %v, want %v", err, records.ErrNotFound)
	}
	if err := r.KeepArtifact(ctx, "acme", "dev", "network", firstDigest, content(second)); err == nil {
		t.Errorf("KeepArtifact(network, content of another digest) = nil, want an error")
	}
	for _, keep := range []struct {
		stack, digest string
		data          []byte
	}{
		{"network", firstDigest, first},
		{"network", firstDigest, nil}, // kept already: nothing asked for, nothing written
		{"app", firstDigest, first},
	} {
		if err := r.KeepArtifact(ctx, "acme", "dev", keep.stack, keep.digest, content(keep.data)); err != nil {
			t.Fatalf("KeepArtifact(%s) = %v", keep.stack, err)
		}
	}
	if got, err := r.KeptArtifact(ctx, "acme", "dev", "network", firstDigest); err != nil || !bytes.Equal(got, first) {
		t.Fatalf("KeptArtifact(network) = %d bytes, %v, want the %d kept", len(got), err, len(first))
	}
	if err := r.KeepArtifact(ctx, "acme", "dev", "network", secondDigest, content(second)); err != nil {
		t.Fatalf("KeepArtifact(network, another) = %v", err)
	}
	if got, err := r.KeptArtifact(ctx, "acme", "dev", "network", secondDigest); err != nil || !bytes.Equal(got, second) {
		t.Errorf("KeptArtifact(network, the second) = %d bytes, %v, want the %d kept", len(got), err, len(second))
	}
	if _, err := r.KeptArtifact(ctx, "acme", "dev", "network", firstDigest); !errors.Is(err, records.ErrNotFound) {
		t.Errorf("KeptArtifact(network, the first) once another is kept = %v, want %v", err, records.ErrNotFound)
	}
	if got, err := r.KeptArtifact(ctx, "acme", "dev", "app", firstDigest); err != nil || !bytes.Equal(got, first) {
		t.Errorf("KeptArtifact(app) = %d bytes, %v, want its own, untouched by network's", len(got), err)
	}
	if err := r.DropArtifacts(ctx, "acme", "dev", "network"); err != nil {
		t.Fatalf("DropArtifacts(network) = %v", err)
	}
	list, err := o.List(ctx, records.Key{Kind: records.Artifact, Client: "acme", Env: "dev", Stack: "network"})
	if err != nil || len(list) != 0 {
		t.Errorf("objects of network's artifacts after DropArtifacts = %d, %v, want none", len(list), err)
	}
	if _, err := r.KeptArtifact(ctx, "acme", "dev", "app", firstDigest); err != nil {
		t.Errorf("KeptArtifact(app) after network's were dropped = %v, want it kept", err)
	}
}
