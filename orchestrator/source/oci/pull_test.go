package oci

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

func TestPull(t *testing.T) {
	p := publish(t)
	ctx := context.Background()
	for _, ref := range []Ref{{Semver: "0.1.0"}, {Semver: "~> 0.2"}, {Semver: ">=0.2.0-0"}} {
		t.Run(ref.String(), func(t *testing.T) {
			r, err := p.client.Resolve(ctx, p.url, ref)
			if err != nil {
				t.Fatalf("Resolve(%q, %+v) = %v", p.url, ref, err)
			}
			dir, err := p.client.Pull(ctx, r)
			if err != nil {
				t.Fatalf("Pull(%+v) = %v", r, err)
			}
			hex := strings.TrimPrefix(r.Digest, "sha256:")
			if want := filepath.Join(p.client.CacheDir(), "sha256", hex); dir != want {
				t.Errorf("Pull(%+v) = %q, want %q", r, dir, want)
			}
			if diff := cmp.Diff(stackFiles(r.Version), tree(t, dir)); diff != "" {
				t.Errorf("Pull(%+v) content mismatch (-want +got):\n%s", r, diff)
			}
		})
	}
}

// TestPullDigestIsManifestDigest checks that the cache key is the digest
// the registry serves the manifest under.
func TestPullDigestIsManifestDigest(t *testing.T) {
	p := publish(t)
	ctx := context.Background()
	r, err := p.client.Resolve(ctx, p.url, Ref{Tag: "0.2.0"})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := name.ParseReference(strings.TrimPrefix(p.url, Scheme) + ":0.2.0")
	if err != nil {
		t.Fatal(err)
	}
	desc, err := remote.Get(ref, remote.WithContext(ctx))
	if err != nil {
		t.Fatalf("remote.Get(%q) = %v", ref, err)
	}
	if got, want := r.Digest, desc.Digest.String(); got != want {
		t.Errorf("Resolve(%q, tag 0.2.0).Digest = %s, want the manifest digest %s", p.url, got, want)
	}
}

func TestPullCachedNeedsNoRegistry(t *testing.T) {
	p := publish(t)
	ctx := context.Background()
	r, err := p.client.Resolve(ctx, p.url, Ref{Semver: "~ 0.1.0-0"})
	if err != nil {
		t.Fatal(err)
	}
	first, err := p.client.Pull(ctx, r)
	if err != nil {
		t.Fatalf("Pull(%+v) = %v", r, err)
	}
	p.reg.Stop()

	second, err := p.client.Pull(ctx, r)
	if err != nil {
		t.Fatalf("Pull(%+v) with the registry stopped = %v, want the cached copy", r, err)
	}
	if second != first {
		t.Errorf("Pull(%+v) = %q, want the cached %q", r, second, first)
	}
	// A digest reference to a cached artefact resolves offline too.
	got, err := p.client.Resolve(ctx, p.url, Ref{Digest: r.Digest})
	if err != nil {
		t.Fatalf("Resolve(%q, digest %s) with the registry stopped = %v, want the cached digest", p.url, r.Digest, err)
	}
	if want := (Resolved{URL: p.url, Digest: r.Digest}); got != want {
		t.Errorf("Resolve(%q, digest) = %+v, want %+v", p.url, got, want)
	}
	// A fresh cache has nothing: the error names the address and says
	// the registry is down.
	other := New(Options{CacheDir: t.TempDir(), Insecure: []string{p.reg.Host}})
	_, err = other.Pull(ctx, r)
	var ue *UnreachableError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "pull "+p.url+"@"+r.Digest) {
		t.Errorf("Pull(%+v) on an empty cache with the registry stopped = %v, want an *UnreachableError naming the address", r, err)
	}
}

// TestPullVerifiesDigest corrupts the layer in the registry's own storage:
// the content no longer matches the manifest, and nothing is cached.
func TestPullVerifiesDigest(t *testing.T) {
	p := publish(t)
	ctx := context.Background()
	r, err := p.client.Resolve(ctx, p.url, Ref{Tag: "0.1.0"})
	if err != nil {
		t.Fatal(err)
	}
	layer := layerDigest(t, p, "0.1.0")
	// Another artefact's layer: a valid archive, with other content.
	other := layerDigest(t, p, "0.2.0")
	b, err := os.ReadFile(p.reg.BlobPath(other))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p.reg.BlobPath(layer), b, 0o644); err != nil {
		t.Fatal(err)
	}

	_, err = p.client.Pull(ctx, r)
	if err == nil {
		t.Fatalf("Pull(%+v) of a corrupted layer = nil error, want a digest mismatch", r)
	}
	if !strings.Contains(err.Error(), "pull "+r.String()) || !strings.Contains(err.Error(), "layer "+layer) {
		t.Errorf("Pull(%+v) = %v, want it to name the artefact and the layer %s", r, err, layer)
	}
	if _, ok := p.client.Cached(r.Digest); ok {
		t.Errorf("Cached(%s) = true after a failed verification, want false", r.Digest)
	}
	entries, err := os.ReadDir(filepath.Join(p.client.CacheDir(), "sha256"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("cache holds %v after a failed verification, want nothing", entries)
	}
}

func TestPullConcurrent(t *testing.T) {
	p := publish(t)
	ctx := context.Background()
	r, err := p.client.Resolve(ctx, p.url, Ref{Tag: "0.2.0"})
	if err != nil {
		t.Fatal(err)
	}
	// Two clients on one cache stand for two processes.
	c2 := New(Options{CacheDir: p.client.CacheDir(), Insecure: []string{p.reg.Host}})
	var wg sync.WaitGroup
	dirs := make([]string, 8)
	errs := make([]error, 8)
	for i := range dirs {
		c := p.client
		if i%2 == 1 {
			c = c2
		}
		wg.Go(func() { dirs[i], errs[i] = c.Pull(ctx, r) })
	}
	wg.Wait()
	for i := range dirs {
		if errs[i] != nil {
			t.Fatalf("Pull(%+v) #%d = %v", r, i, errs[i])
		}
		if dirs[i] != dirs[0] {
			t.Errorf("Pull(%+v) #%d = %q, want %q", r, i, dirs[i], dirs[0])
		}
	}
	if diff := cmp.Diff(stackFiles("0.2.0"), tree(t, dirs[0])); diff != "" {
		t.Errorf("Pull(%+v) content mismatch (-want +got):\n%s", r, diff)
	}
}

func TestPullErrors(t *testing.T) {
	p := publish(t)
	ctx := context.Background()
	missing := "sha256:" + strings.Repeat("0", 64)
	tests := []struct {
		name     string
		r        Resolved
		notFound bool
		want     string
	}{
		{"no digest", Resolved{URL: p.url, Tag: "0.1.0"}, false, "no digest: resolve the reference first"},
		{"invalid digest", Resolved{URL: p.url, Digest: "sha256:nothex"}, false, `invalid digest "sha256:nothex"`},
		{"unknown digest", Resolved{URL: p.url, Digest: missing}, true, "pull " + p.url + "@" + missing + ": manifest not found"},
		{"bad address", Resolved{URL: "https://example.com/x", Digest: missing}, false, "address must look like oci://"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := p.client.Pull(ctx, tt.r)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Pull(%+v) = %v, want an error containing %q", tt.r, err, tt.want)
			}
			var nf *NotFoundError
			if got := errors.As(err, &nf); got != tt.notFound {
				t.Errorf("Pull(%+v) = %v: is *NotFoundError = %v, want %v", tt.r, err, got, tt.notFound)
			}
		})
	}
}

// layerDigest is the digest of the content layer of the artefact at tag.
func layerDigest(t *testing.T, p *published, tag string) string {
	t.Helper()
	ref, err := name.ParseReference(strings.TrimPrefix(p.url, Scheme) + ":" + tag)
	if err != nil {
		t.Fatal(err)
	}
	img, err := remote.Image(ref)
	if err != nil {
		t.Fatalf("remote.Image(%q) = %v", ref, err)
	}
	m, err := img.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	return m.Layers[0].Digest.String()
}
