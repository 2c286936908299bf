package oci

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	fluxoci "github.com/fluxcd/pkg/oci"
	"github.com/fluxcd/pkg/sourceignore"
	"github.com/google/go-containerregistry/pkg/crane"
)

// The annotations every artefact carries, as `flux push artifact` writes
// them.
const (
	AnnotationSource   = "org.opencontainers.image.source"
	AnnotationRevision = "org.opencontainers.image.revision"
	AnnotationCreated  = "org.opencontainers.image.created"
)

// ReproducibleCreated is the creation time `flux push artifact
// --reproducible` writes: with it, the same content gives the same digest.
const ReproducibleCreated = "1970-01-01T00:00:00Z"

// The media types of a Flux artefact.
const (
	ConfigMediaType  = "application/vnd.cncf.flux.config.v1+json"
	ContentMediaType = "application/vnd.cncf.flux.content.v1.tar+gzip"
)

// DefaultIgnorePaths are left out of an artefact unless PushMeta says
// otherwise: the default of `flux push artifact --ignore-paths`.
var DefaultIgnorePaths = append(strings.Split(sourceignore.ExcludeVCS, ","), strings.Split(sourceignore.ExcludeExt, ",")...)

// PushMeta describes where an artefact's content comes from.
type PushMeta struct {
	// Source is the address of the code, e.g. the Git remote URL.
	Source string
	// Revision is the code's revision, e.g. "main@sha1:<commit>".
	Revision string
	// Annotations are added to the manifest; they may override the
	// created time (AnnotationCreated).
	Annotations map[string]string
	// IgnorePaths are .gitignore patterns left out of the artefact. Nil
	// means DefaultIgnorePaths; an empty slice leaves nothing out.
	IgnorePaths []string
}

// Push uploads the directory dir as an artefact tagged by url
// ("oci://host/repo:tag") and returns its manifest digest. The artefact is
// built and uploaded by fluxcd/pkg/oci's client with the options `flux
// push artifact` uses, so Flux's OCIRepository reads it: a gzipped tar
// layer of the directory, the Flux config and content media types, and
// the source, revision and created annotations.
func (c *Client) Push(ctx context.Context, dir, url string, meta PushMeta) (string, error) {
	digest, err := c.push(ctx, dir, url, meta)
	if err != nil {
		return "", fmt.Errorf("push %s to %s: %w", dir, url, err)
	}
	return digest, nil
}

func (c *Client) push(ctx context.Context, dir, url string, meta PushMeta) (string, error) {
	tag, err := c.artefact(url)
	if err != nil {
		return "", err
	}
	// The client writes its archive next to the directory it is given:
	// a clean absolute path keeps that outside the directory.
	dir, err = filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("not a directory")
	}
	host := tag.RegistryStr()
	opts := []crane.Option{
		crane.WithTransport(c.transport),
		crane.WithAuthFromKeychain(c.keychain),
		crane.WithUserAgent(userAgent),
	}
	if c.insecure[normalizeHost(host)] {
		opts = append(opts, crane.Insecure)
	}
	ignore := meta.IgnorePaths
	if ignore == nil {
		ignore = DefaultIgnorePaths
	}
	client := fluxoci.NewClient(opts)
	digestURL, err := client.Push(ctx, tag.String(), dir,
		fluxoci.WithPushMetadata(fluxoci.Metadata{
			Source:      meta.Source,
			Revision:    meta.Revision,
			Annotations: meta.Annotations,
		}),
		fluxoci.WithPushIgnorePaths(ignore...),
	)
	if err != nil {
		return "", classify(err, host, nil)
	}
	_, digest, ok := strings.Cut(digestURL, "@")
	if !ok {
		return "", fmt.Errorf("registry client returned %q, not a digest address", digestURL)
	}
	return digest, nil
}
