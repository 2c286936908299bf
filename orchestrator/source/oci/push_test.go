package oci

import (
	"context"
	"errors"
	"maps"
	"path/filepath"
	"strings"
	"testing"
	"time"

	fluxoci "github.com/fluxcd/pkg/oci"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/types"

	"github.com/strata-iac/strata/orchestrator/source/oci/ocitest"
)

// TestPushFluxReads pushes with strata and reads the artefact back with
// fluxcd/pkg/oci's own client, and checks the manifest has Flux's media
// types and annotations.
func TestPushFluxReads(t *testing.T) {
	reg := ocitest.Start(t)
	c := newClient(t, reg)
	ctx := context.Background()
	files := stackFiles("0.4.0")
	files[".git/HEAD"] = "ref: refs/heads/main\n" // left out, as flux push artifact does
	src := writeTree(t, files)
	url := reg.URL("iac/bar") + ":0.4.0"
	meta := PushMeta{
		Source:      "https://git.example.com/iac.git",
		Revision:    "main@sha1:0123456789abcdef0123456789abcdef01234567",
		Annotations: map[string]string{"strata.dev/stack": "bar"},
	}
	before := time.Now().Add(-time.Second).UTC()
	digest, err := c.Push(ctx, src, url, meta)
	if err != nil {
		t.Fatalf("Push(%q) = %v", url, err)
	}
	if _, err := v1.NewHash(digest); err != nil {
		t.Errorf("Push(%q) = %q, want a sha256 digest: %v", url, digest, err)
	}

	m := manifest(t, strings.TrimPrefix(reg.URL("iac/bar"), Scheme)+"@"+digest)
	if got, want := m.MediaType, types.OCIManifestSchema1; got != want {
		t.Errorf("manifest media type = %q, want %q", got, want)
	}
	if got, want := m.Config.MediaType, fluxoci.CanonicalConfigMediaType; got != want {
		t.Errorf("config media type = %q, want %q", got, want)
	}
	if len(m.Layers) != 1 {
		t.Fatalf("manifest has %d layers, want 1", len(m.Layers))
	}
	if got, want := m.Layers[0].MediaType, fluxoci.CanonicalContentMediaType; got != want {
		t.Errorf("layer media type = %q, want %q", got, want)
	}
	created, err := time.Parse(time.RFC3339, m.Annotations[fluxoci.CreatedAnnotation])
	if err != nil || created.Before(before) || created.After(time.Now().Add(time.Second)) {
		t.Errorf("annotation %s = %q, want the push time in RFC 3339", fluxoci.CreatedAnnotation, m.Annotations[fluxoci.CreatedAnnotation])
	}
	want := map[string]string{
		fluxoci.SourceAnnotation:   meta.Source,
		fluxoci.RevisionAnnotation: meta.Revision,
		fluxoci.CreatedAnnotation:  m.Annotations[fluxoci.CreatedAnnotation],
		"strata.dev/stack":         "bar",
	}
	if diff := cmp.Diff(want, m.Annotations); diff != "" {
		t.Errorf("manifest annotations mismatch (-want +got):\n%s", diff)
	}

	// Flux's own client pulls it, by digest, and reads the metadata.
	out := filepath.Join(t.TempDir(), "out")
	fluxMeta, err := fluxoci.NewClient(fluxoci.DefaultOptions()).Pull(ctx, strings.TrimPrefix(reg.URL("iac/bar"), Scheme)+"@"+digest, out)
	if err != nil {
		t.Fatalf("flux Pull(%s) = %v", digest, err)
	}
	if fluxMeta.Source != meta.Source || fluxMeta.Revision != meta.Revision {
		t.Errorf("flux Pull metadata = %+v, want source %q, revision %q", fluxMeta, meta.Source, meta.Revision)
	}
	delete(files, ".git/HEAD")
	if diff := cmp.Diff(files, tree(t, out)); diff != "" {
		t.Errorf("flux Pull content mismatch (-want +got):\n%s", diff)
	}
}

// TestPushMatchesFlux pushes one directory with strata and with
// fluxcd/pkg/oci the way `flux push artifact --reproducible` does: the
// two artefacts are byte for byte the same.
func TestPushMatchesFlux(t *testing.T) {
	reg := ocitest.Start(t)
	c := newClient(t, reg)
	ctx := context.Background()
	src := writeTree(t, stackFiles("1.0.0"))
	meta := fluxoci.Metadata{Source: "https://git.example.com/iac.git", Revision: "1.0.0@sha1:abc", Created: ReproducibleCreated}
	fluxURL := strings.TrimPrefix(reg.URL("iac/byflux"), Scheme) + ":1.0.0"
	fluxDigestURL, err := fluxoci.NewClient(fluxoci.DefaultOptions()).Push(ctx, fluxURL, src,
		fluxoci.WithPushMetadata(meta), fluxoci.WithPushIgnorePaths(DefaultIgnorePaths...))
	if err != nil {
		t.Fatalf("flux Push(%q) = %v", fluxURL, err)
	}
	got, err := c.Push(ctx, src, reg.URL("iac/bystrata")+":1.0.0", PushMeta{
		Source:      meta.Source,
		Revision:    meta.Revision,
		Annotations: map[string]string{AnnotationCreated: ReproducibleCreated},
	})
	if err != nil {
		t.Fatalf("Push() = %v", err)
	}
	if _, want, _ := strings.Cut(fluxDigestURL, "@"); got != want {
		t.Errorf("Push() = %s, want the digest flux push gives the same content, %s", got, want)
	}
}

// TestFluxPushStrataReads pushes with fluxcd/pkg/oci's client as `flux
// push artifact` does; strata resolves and pulls it.
func TestFluxPushStrataReads(t *testing.T) {
	reg := ocitest.Start(t)
	c := newClient(t, reg)
	ctx := context.Background()
	fc := fluxoci.NewClient(fluxoci.DefaultOptions())
	repo := strings.TrimPrefix(reg.URL("iac/fluxed"), Scheme)
	digests := map[string]string{}
	for _, v := range []string{"2.4.0", "2.5.0", "2.6.0-rc.1"} {
		src := writeTree(t, stackFiles(v))
		d, err := fc.Push(ctx, repo+":"+v, src, fluxoci.WithPushMetadata(fluxoci.Metadata{
			Source: "https://git.example.com/iac.git", Revision: v + "@sha1:abc",
		}), fluxoci.WithPushIgnorePaths(DefaultIgnorePaths...))
		if err != nil {
			t.Fatalf("flux Push(%q) = %v", repo+":"+v, err)
		}
		_, digests[v], _ = strings.Cut(d, "@")
	}
	tests := []struct {
		ref  Ref
		want string
	}{
		{Ref{Semver: "2.5.0"}, "2.5.0"},
		{Ref{Semver: "~> 2"}, "2.5.0"},
		{Ref{Semver: "~> 2.4"}, "2.4.0"},
		{Ref{Semver: ">= 2.5.0-0"}, "2.6.0-rc.1"},
		{Ref{Tag: "2.4.0"}, "2.4.0"},
	}
	for _, tt := range tests {
		t.Run(tt.ref.String(), func(t *testing.T) {
			r, err := c.Resolve(ctx, reg.URL("iac/fluxed"), tt.ref)
			if err != nil {
				t.Fatalf("Resolve(%+v) = %v", tt.ref, err)
			}
			if r.Version != tt.want || r.Digest != digests[tt.want] {
				t.Errorf("Resolve(%+v) = %+v, want version %s digest %s", tt.ref, r, tt.want, digests[tt.want])
			}
			dir, err := c.Pull(ctx, r)
			if err != nil {
				t.Fatalf("Pull(%+v) = %v", r, err)
			}
			if diff := cmp.Diff(stackFiles(tt.want), tree(t, dir)); diff != "" {
				t.Errorf("Pull(%+v) content mismatch (-want +got):\n%s", r, diff)
			}
		})
	}
}

func TestPushIgnorePaths(t *testing.T) {
	reg := ocitest.Start(t)
	c := newClient(t, reg)
	ctx := context.Background()
	files := stackFiles("0.1.0")
	files["docs/diagram.png"] = "png"
	files[".terraform/lock"] = "x"
	tests := []struct {
		name   string
		ignore []string
		drop   []string
	}{
		{"flux defaults", nil, []string{"docs/diagram.png"}},
		{"nothing", []string{}, nil},
		{"given patterns", []string{".terraform/"}, []string{".terraform/lock"}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := reg.URL("iac/ignore") + ":" + string(rune('a'+i))
			d, err := c.Push(ctx, writeTree(t, files), url, PushMeta{IgnorePaths: tt.ignore})
			if err != nil {
				t.Fatalf("Push(%q) = %v", url, err)
			}
			dir, err := c.Pull(ctx, Resolved{URL: reg.URL("iac/ignore"), Digest: d})
			if err != nil {
				t.Fatalf("Pull(%s) = %v", d, err)
			}
			want := maps.Clone(files)
			for _, p := range tt.drop {
				delete(want, p)
			}
			if diff := cmp.Diff(want, tree(t, dir)); diff != "" {
				t.Errorf("Push(IgnorePaths %q) content mismatch (-want +got):\n%s", tt.ignore, diff)
			}
		})
	}
}

func TestPushErrors(t *testing.T) {
	reg := ocitest.Start(t)
	c := newClient(t, reg)
	ctx := context.Background()
	src := writeTree(t, stackFiles("0.1.0"))
	file := filepath.Join(src, "main.tf")
	tests := []struct {
		name string
		dir  string
		url  string
		want string
	}{
		{"no tag", src, reg.URL("iac/foo"), "address must end with a tag"},
		{"digest", src, reg.URL("iac/foo") + "@sha256:" + strings.Repeat("0", 64), "address must name a tag, not a digest"},
		{"no scheme", src, reg.Host + "/iac/foo:1.0.0", "address must look like oci://"},
		{"missing dir", filepath.Join(src, "nope"), reg.URL("iac/foo") + ":1.0.0", "no such file or directory"},
		{"file", file, reg.URL("iac/foo") + ":1.0.0", "not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Push(ctx, tt.dir, tt.url, PushMeta{})
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "push "+tt.dir+" to "+tt.url) {
				t.Errorf("Push(%q, %q) = %v, want an error naming both and containing %q", tt.dir, tt.url, err, tt.want)
			}
		})
	}

	t.Run("registry down", func(t *testing.T) {
		reg.Stop()
		url := reg.URL("iac/foo") + ":1.0.0"
		_, err := c.Push(ctx, src, url, PushMeta{})
		var ue *UnreachableError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), url) {
			t.Errorf("Push(%q) with the registry stopped = %v, want an *UnreachableError naming the address", url, err)
		}
	})
}

// manifest fetches and parses the manifest ref names.
func manifest(t *testing.T, ref string) *v1.Manifest {
	t.Helper()
	r, err := name.ParseReference(ref)
	if err != nil {
		t.Fatal(err)
	}
	desc, err := remote.Get(r)
	if err != nil {
		t.Fatalf("remote.Get(%q) = %v", ref, err)
	}
	m, err := v1.ParseManifest(strings.NewReader(string(desc.Manifest)))
	if err != nil {
		t.Fatal(err)
	}
	return m
}
