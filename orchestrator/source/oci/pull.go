package oci

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"

	"github.com/fluxcd/pkg/tar"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// Pull returns the directory that holds the content of the artefact r
// names, fetching it by r.Digest into the cache unless it is there
// already. A cached digest is never downloaded again, so Pull of a cached
// artefact needs no registry.
//
// The artefact's manifest and its content layer are both checked against
// their digests; content that does not match is never cached. The first
// layer is extracted, as Flux's OCIRepository does when it has no layer
// selector. The directory is shared: callers copy from it and never write
// into it.
func (c *Client) Pull(ctx context.Context, r Resolved) (string, error) {
	dir, err := c.pull(ctx, r)
	if err != nil {
		return "", fmt.Errorf("pull %s: %w", r, err)
	}
	return dir, nil
}

func (c *Client) pull(ctx context.Context, r Resolved) (string, error) {
	if r.Digest == "" {
		return "", fmt.Errorf("no digest: resolve the reference first")
	}
	h, err := parseDigest(r.Digest)
	if err != nil {
		return "", err
	}
	repo, err := c.repository(r.URL)
	if err != nil {
		return "", err
	}
	if dir, ok := c.Cached(h.String()); ok {
		return dir, nil
	}
	// Concurrent pulls of one digest share one download.
	v, err, _ := c.pulls.Do(h.String(), func() (any, error) {
		if dir, ok := c.Cached(h.String()); ok {
			return dir, nil
		}
		return c.install(h, func(tmp string) error {
			return c.fetch(ctx, repo.Digest(h.String()), h, tmp)
		})
	})
	if err != nil {
		return "", err
	}
	return v.(string), nil
}

// fetch downloads the manifest named by h and extracts its first layer
// into dir, verifying both digests.
func (c *Client) fetch(ctx context.Context, ref name.Digest, h v1.Hash, dir string) error {
	host := ref.Context().RegistryStr()
	opts := c.remoteOptions(ctx)
	desc, err := remote.Get(ref, opts...)
	if err != nil {
		return classify(err, host, &NotFoundError{URL: Scheme + ref.Context().Name(), Ref: Ref{Digest: h.String()}})
	}
	if got, _, err := v1.SHA256(bytes.NewReader(desc.Manifest)); err != nil || got != h {
		return fmt.Errorf("manifest digest mismatch: got %s, want %s", got, h)
	}
	if desc.MediaType.IsIndex() {
		return fmt.Errorf("%s is an index (%s), not an artefact manifest", h, desc.MediaType)
	}
	m, err := v1.ParseManifest(bytes.NewReader(desc.Manifest))
	if err != nil {
		return fmt.Errorf("parse manifest: %w", err)
	}
	if len(m.Layers) == 0 {
		return fmt.Errorf("artefact has no layers")
	}
	want := m.Layers[0]
	layer, err := remote.Layer(ref.Context().Digest(want.Digest.String()), opts...)
	if err != nil {
		return fmt.Errorf("layer %s: %w", want.Digest, classify(err, host, nil))
	}
	rc, err := layer.Compressed()
	if err != nil {
		return fmt.Errorf("layer %s: %w", want.Digest, classify(err, host, nil))
	}
	defer rc.Close()
	vr := newVerifier(rc)
	if err := tar.Untar(vr, dir, tar.WithMaxUntarSize(tar.UnlimitedUntarSize), tar.WithSkipSymlinks()); err != nil {
		return fmt.Errorf("extract layer %s: %w", want.Digest, err)
	}
	// Read what the archive did not need, so the digest covers the whole
	// blob.
	if _, err := io.Copy(io.Discard, vr); err != nil {
		return fmt.Errorf("layer %s: %w", want.Digest, err)
	}
	if err := vr.check(want); err != nil {
		return fmt.Errorf("layer %s: %w", want.Digest, err)
	}
	return nil
}

// verifier hashes and counts what is read through it.
type verifier struct {
	r io.Reader
	h hash.Hash
	n int64
}

func newVerifier(r io.Reader) *verifier {
	h := sha256.New()
	return &verifier{r: io.TeeReader(r, h), h: h}
}

func (v *verifier) Read(p []byte) (int, error) {
	n, err := v.r.Read(p)
	v.n += int64(n)
	return n, err
}

// check compares what was read with the layer's descriptor.
func (v *verifier) check(want v1.Descriptor) error {
	got := v1.Hash{Algorithm: "sha256", Hex: hex.EncodeToString(v.h.Sum(nil))}
	if want.Digest.Algorithm != "sha256" || got != want.Digest {
		return fmt.Errorf("digest mismatch: content is %s", got)
	}
	if v.n != want.Size {
		return fmt.Errorf("size mismatch: content is %d bytes, manifest says %d", v.n, want.Size)
	}
	return nil
}
