package oci

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"golang.org/x/sync/singleflight"
)

// Scheme prefixes every artefact address, as in Flux's OCIRepository
// spec.url.
const Scheme = "oci://"

// userAgent identifies strata to registries.
const userAgent = "strata"

// Options configure a Client.
type Options struct {
	// CacheDir is the root of the content-addressed cache of pulled
	// artefacts. Empty means the user's cache directory, strata/oci.
	CacheDir string
	// Insecure lists the registry hosts ("host:port", e.g. "127.0.0.1:5000")
	// that may be reached over plain http. Every other host is https only.
	Insecure []string
	// DockerConfig is the path of a Docker config.json to read credentials
	// from. Empty means $DOCKER_CONFIG/config.json, else
	// ~/.docker/config.json.
	DockerConfig string
}

// Ref says which artefact of a repository to use, as OCIRepository's
// spec.ref does. Digest wins over Semver, which wins over Tag; all empty
// means the tag "latest".
type Ref struct {
	Semver string `json:"semver,omitempty"`
	Tag    string `json:"tag,omitempty"`
	Digest string `json:"digest,omitempty"`
}

// String describes the reference for messages: `semver "~ 0.1.0-0"`,
// `tag "0.2.0"`, `digest "sha256:…"`.
func (r Ref) String() string {
	switch {
	case r.Digest != "":
		return fmt.Sprintf("digest %q", r.Digest)
	case r.Semver != "":
		return fmt.Sprintf("semver %q", r.Semver)
	case r.Tag != "":
		return fmt.Sprintf("tag %q", r.Tag)
	default:
		return fmt.Sprintf("tag %q", name.DefaultTag)
	}
}

// Resolved is one exact artefact.
type Resolved struct {
	// URL is the repository, "oci://host/repo".
	URL string `json:"url"`
	// Tag is the tag the artefact was found by; empty for a digest
	// reference.
	Tag string `json:"tag,omitempty"`
	// Version is the semver version the tag names: the tag a semver
	// constraint picked, or a tag reference that is itself a version.
	// Empty otherwise.
	Version string `json:"version,omitempty"`
	// Digest is the manifest digest, "sha256:…".
	Digest string `json:"digest"`
}

// String is the artefact's pinned address, "oci://host/repo@sha256:…".
func (r Resolved) String() string { return r.URL + "@" + r.Digest }

// Client reaches OCI registries and keeps the artefact cache. It is safe
// for concurrent use.
type Client struct {
	cacheDir  string
	insecure  map[string]bool
	keychain  *keychain
	transport http.RoundTripper
	pulls     singleflight.Group
}

// New returns a Client. It does no I/O: credentials are read when a
// registry asks for them.
func New(opts Options) *Client {
	cache := opts.CacheDir
	if cache == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			cache = filepath.Join(dir, "strata", "oci")
		} else {
			cache = filepath.Join(os.TempDir(), "strata-oci-cache")
		}
	}
	insecure := map[string]bool{}
	for _, h := range opts.Insecure {
		if h = normalizeHost(h); h != "" {
			insecure[h] = true
		}
	}
	base := remote.DefaultTransport.(*http.Transport).Clone()
	return &Client{
		cacheDir:  cache,
		insecure:  insecure,
		keychain:  newKeychain(opts.DockerConfig),
		transport: &httpsOnly{next: base, insecure: insecure},
	}
}

// CacheDir is the root of the artefact cache.
func (c *Client) CacheDir() string { return c.cacheDir }

// repository parses "oci://host/repo" into a repository. The address must
// name neither a tag nor a digest: those come from the Ref.
func (c *Client) repository(url string) (name.Repository, error) {
	rest, ok := strings.CutPrefix(url, Scheme)
	if !ok {
		return name.Repository{}, fmt.Errorf("address must look like %shost/repository", Scheme)
	}
	if strings.Contains(rest, "@") {
		return name.Repository{}, fmt.Errorf("address must not contain a digest: put it in the digest reference")
	}
	if i := strings.LastIndex(rest, ":"); i > strings.LastIndex(rest, "/") {
		return name.Repository{}, fmt.Errorf("address must not contain a tag; remove %q", rest[i:])
	}
	return c.parseRepository(rest)
}

// artefact parses "oci://host/repo:tag" into a tag reference.
func (c *Client) artefact(url string) (name.Tag, error) {
	rest, ok := strings.CutPrefix(url, Scheme)
	if !ok {
		return name.Tag{}, fmt.Errorf("address must look like %shost/repository:tag", Scheme)
	}
	if strings.Contains(rest, "@") {
		return name.Tag{}, fmt.Errorf("address must name a tag, not a digest")
	}
	i := strings.LastIndex(rest, ":")
	if i <= strings.LastIndex(rest, "/") {
		return name.Tag{}, fmt.Errorf("address must end with a tag, e.g. %shost/repository:0.1.0", Scheme)
	}
	repo, err := c.parseRepository(rest[:i])
	if err != nil {
		return name.Tag{}, err
	}
	return name.NewTag(rest, c.nameOptions(repo.RegistryStr())...)
}

// parseRepository parses "host/repo" the way Flux does (a first part with
// no dot or port is a Docker Hub path), marking listed hosts insecure.
func (c *Client) parseRepository(s string) (name.Repository, error) {
	repo, err := name.NewRepository(s)
	if err != nil {
		return name.Repository{}, err
	}
	if opts := c.nameOptions(repo.RegistryStr()); len(opts) > 0 {
		return name.NewRepository(s, opts...)
	}
	return repo, nil
}

func (c *Client) nameOptions(host string) []name.Option {
	if c.insecure[normalizeHost(host)] {
		return []name.Option{name.Insecure}
	}
	return nil
}

// remoteOptions are the options of every registry call.
func (c *Client) remoteOptions(ctx context.Context) []remote.Option {
	return []remote.Option{
		remote.WithContext(ctx),
		remote.WithTransport(c.transport),
		remote.WithAuthFromKeychain(c.keychain),
		remote.WithUserAgent(userAgent),
	}
}

// httpsOnly refuses plain http to every host not listed as insecure.
type httpsOnly struct {
	next     http.RoundTripper
	insecure map[string]bool
}

func (t *httpsOnly) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme == "http" && !t.insecure[normalizeHost(req.URL.Host)] {
		return nil, &PlainHTTPError{Host: req.URL.Host}
	}
	return t.next.RoundTrip(req)
}

func normalizeHost(h string) string {
	h = strings.TrimSpace(strings.ToLower(h))
	h = strings.TrimPrefix(strings.TrimPrefix(h, "http://"), "https://")
	h = strings.TrimSuffix(h, "/")
	return h
}
