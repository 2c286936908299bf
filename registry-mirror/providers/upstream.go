package providers

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/strata-iac/strata/internal/certpool"
	"github.com/strata-iac/strata/registry-mirror/protocol"
)

// ErrChecksum is wrapped, with [protocol.ErrUpstream], when a package from the
// upstream does not have the SHA-256 its SHA256SUMS lists.
var ErrChecksum = errors.New("checksum mismatch")

// maxRegistryDoc is the largest JSON document or SHA256SUMS file read from
// an upstream; the longest version lists are a few hundred kilobytes.
const maxRegistryDoc = 16 << 20

// registryClient asks an upstream registry over the Provider Registry
// Protocol, over https only.
type registryClient struct {
	// host is the upstream's host[:port].
	host   string
	client *http.Client
	// ttl is how long the discovered providers.v1 URL is kept.
	ttl time.Duration

	mu     sync.Mutex
	base   *url.URL
	baseAt time.Time
}

// CheckUpstream checks an upstream address, a registry host with an
// optional port, such as registry.opentofu.org or 127.0.0.1:8443.
func CheckUpstream(host string) error {
	if host == "" || strings.ContainsAny(host, "/?#@ ") {
		return fmt.Errorf("%w upstream %q: want a registry host[:port], e.g. registry.opentofu.org", protocol.ErrInvalid, host)
	}
	u, err := url.Parse("https://" + host + "/")
	if err != nil || u.Host != host || u.Hostname() == "" {
		return fmt.Errorf("%w upstream %q: want a registry host[:port], e.g. registry.opentofu.org", protocol.ErrInvalid, host)
	}
	if port := u.Port(); port != "" {
		if _, err := net.LookupPort("tcp", port); err != nil {
			return fmt.Errorf("%w upstream %q: port %q", protocol.ErrInvalid, host, port)
		}
	}
	return nil
}

// NewUpstreamClient returns an https client for an upstream registry:
// it trusts the system's roots and the CA certificates in caPEM (none
// when caPEM is nil) and follows redirects to https only. The mirror
// bounds how long each request waits for its answer to start
// (Options.UpstreamTimeout), never the reading of a body, since a
// package can take minutes.
func NewUpstreamClient(caPEM []byte) (*http.Client, error) {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSHandshakeTimeout = 15 * time.Second
	if caPEM != nil {
		pool, ok := certpool.WithPEM(caPEM)
		if !ok {
			return nil, fmt.Errorf("make upstream client: %w CA bundle: no PEM certificate in it", protocol.ErrInvalid)
		}
		t.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12, RootCAs: pool}
	}
	return &http.Client{
		Transport: t,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if req.URL.Scheme != "https" {
				return fmt.Errorf("redirect to %s: not https", req.URL)
			}
			if len(via) >= 10 {
				return errors.New("stopped after 10 redirects")
			}
			return nil
		},
	}, nil
}

// errf wraps err as an upstream failure.
func (c *registryClient) errf(format string, args ...any) error {
	return fmt.Errorf("%w %s: %s", protocol.ErrUpstream, c.host, fmt.Sprintf(format, args...))
}

// providersURL is the upstream's providers.v1 URL, from its service
// discovery document, kept for the client's ttl.
func (c *registryClient) providersURL(ctx context.Context) (*url.URL, error) {
	c.mu.Lock()
	if c.base != nil && time.Since(c.baseAt) < c.ttl {
		defer c.mu.Unlock()
		return c.base, nil
	}
	c.mu.Unlock()
	disco := &url.URL{Scheme: "https", Host: c.host, Path: protocol.DiscoveryPath}
	var doc map[string]any
	if err := c.getJSON(ctx, disco, &doc); err != nil {
		if errors.Is(err, protocol.ErrNotFound) {
			return nil, c.errf("no service discovery document at %s", disco)
		}
		return nil, err
	}
	s, ok := doc["providers.v1"].(string)
	if !ok {
		return nil, c.errf("%s names no providers.v1: not a provider registry", disco)
	}
	ref, err := url.Parse(s)
	if err != nil {
		return nil, c.errf("%s: providers.v1 %q: %v", disco, s, err)
	}
	base := disco.ResolveReference(ref)
	if base.Scheme != "https" {
		return nil, c.errf("%s: providers.v1 %q is not https", disco, s)
	}
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	c.mu.Lock()
	c.base, c.baseAt = base, time.Now()
	c.mu.Unlock()
	return base, nil
}

// versions asks the upstream for a provider's versions. The error wraps
// [protocol.ErrNotFound] when the upstream does not know the provider.
func (c *registryClient) versions(ctx context.Context, namespace, typ string) ([]registryVersion, error) {
	base, err := c.providersURL(ctx)
	if err != nil {
		return nil, err
	}
	u := base.JoinPath(namespace, typ, "versions")
	var body registryVersions
	if err := c.getJSON(ctx, u, &body); err != nil {
		return nil, err
	}
	return body.Versions, nil
}

// download asks the upstream where a package is. It returns the answer
// and its URL, which relative URLs in it are resolved against. The error
// wraps [protocol.ErrNotFound] when the upstream has no such package.
func (c *registryClient) download(ctx context.Context, namespace, typ, version, goos, arch string) (registryDownload, *url.URL, error) {
	base, err := c.providersURL(ctx)
	if err != nil {
		return registryDownload{}, nil, err
	}
	u := base.JoinPath(namespace, typ, version, "download", goos, arch)
	var body registryDownload
	if err := c.getJSON(ctx, u, &body); err != nil {
		return registryDownload{}, nil, err
	}
	return body, u, nil
}

// resolve resolves ref, a URL from an answer at base, and checks that it
// is https.
func (c *registryClient) resolve(base *url.URL, field, ref string) (*url.URL, error) {
	r, err := url.Parse(ref)
	if err != nil || ref == "" {
		return nil, c.errf("%s: %s %q is not a URL", base, field, ref)
	}
	u := base.ResolveReference(r)
	if u.Scheme != "https" {
		return nil, c.errf("%s: %s %q is not https", base, field, ref)
	}
	return u, nil
}

// getJSON reads the JSON document at u into v.
func (c *registryClient) getJSON(ctx context.Context, u *url.URL, v any) error {
	data, err := c.get(ctx, u)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return c.errf("%s: not the registry protocol's JSON: %v", u, err)
	}
	return nil
}

// get reads the small file at u: a document or a signature.
func (c *registryClient) get(ctx context.Context, u *url.URL) ([]byte, error) {
	body, _, err := c.open(ctx, u)
	if err != nil {
		return nil, err
	}
	defer body.Close()
	data, err := io.ReadAll(io.LimitReader(body, maxRegistryDoc+1))
	if err != nil {
		return nil, c.errf("read %s: %v", u, err)
	}
	if len(data) > maxRegistryDoc {
		return nil, c.errf("%s is larger than %d bytes", u, maxRegistryDoc)
	}
	return data, nil
}

// open GETs u and returns its body and size (-1 when unknown). The error
// wraps [protocol.ErrNotFound] for a 404, [protocol.ErrUpstream] for anything else but 200.
func (c *registryClient) open(ctx context.Context, u *url.URL) (io.ReadCloser, int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, 0, c.errf("GET %s: %v", u, err)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, 0, c.errf("GET %s: %v", u, err)
	}
	switch resp.StatusCode {
	case http.StatusOK:
		return resp.Body, resp.ContentLength, nil
	case http.StatusNotFound:
		resp.Body.Close()
		return nil, 0, fmt.Errorf("upstream %s: GET %s: %w", c.host, u, protocol.ErrNotFound)
	default:
		resp.Body.Close()
		return nil, 0, c.errf("GET %s: %s", u, resp.Status)
	}
}
