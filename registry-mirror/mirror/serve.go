package mirror

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/strata-iac/strata/registry-mirror/modules"
	"github.com/strata-iac/strata/registry-mirror/protocol"
)

// shutdownTimeout is how long a stopping server lets running requests,
// such as a package download, finish.
const shutdownTimeout = 30 * time.Second

// Options configure a [Server].
type Options struct {
	// UploadToken enables PUT of provider and module archives by clients
	// that send it as a bearer token. Without one, PUT is 405 Method Not
	// Allowed.
	UploadToken string
	// MaxUpload is the largest archive a PUT may carry; 0 means
	// [protocol.DefaultMaxUpload].
	MaxUpload int64
	// Logger gets a line per upload, per package pulled through and per
	// failed request; nil discards them.
	Logger *slog.Logger

	// SigningKey makes the server a provider registry too: it serves the
	// Provider Registry Protocol under [ProvidersPath] (and names it as
	// providers.v1 in service discovery) for the providers the store holds
	// under RegistryHostname, with SHA256SUMS files signed by this key.
	// tofu installs nothing from a registry without a valid signature, so
	// without a key the server is no provider registry.
	SigningKey *SigningKey
	// RegistryHostname is the provider hostname in the store whose
	// providers the Provider Registry Protocol serves: a request for
	// <namespace>/<type> is for <RegistryHostname>/<namespace>/<type>.
	// Empty means [DefaultHostname], so that a strata registry can stand
	// for registry.opentofu.org as the upstream of other mirrors.
	RegistryHostname string

	// Upstream makes the server a pull-through cache: the host[:port] of a
	// registry speaking the Provider Registry Protocol over https, such as
	// registry.opentofu.org or another strata mirror with a SigningKey.
	// Providers under UpstreamHostname that the store does not hold come
	// from it: index.json lists its versions too, <version>.json its
	// archives, and an archive asked for is downloaded, checked against
	// the upstream's signed SHA256SUMS, stored and served; from then on it
	// is served from the store. Providers under any other hostname never
	// go upstream.
	Upstream string
	// UpstreamHostname is the provider hostname the upstream stands for:
	// the mirror path /<UpstreamHostname>/<namespace>/<type>/… is the
	// upstream's <namespace>/<type>. Empty means [DefaultHostname].
	UpstreamHostname string
	// UpstreamClient is the https client for the upstream, e.g. one of
	// [NewUpstreamClient] that trusts a private CA; nil means
	// NewUpstreamClient(nil), with the system's roots.
	UpstreamClient *http.Client
	// UpstreamKeys, when set, are the only keys the upstream's SHA256SUMS
	// may be signed with. Without them, the signature is checked against
	// the keys the upstream names beside each package, as tofu checks it;
	// a package for which the upstream names no key is checked against its
	// SHA256SUMS only.
	UpstreamKeys *KeyRing
	// UpstreamTTL is how long the upstream's version lists are kept; 0
	// means [DefaultUpstreamTTL].
	UpstreamTTL time.Duration
}

// Check checks the options' addresses: that Upstream is a host[:port],
// and that RegistryHostname and UpstreamHostname are provider hostnames.
// [NewServer] expects checked options; with a malformed upstream, every
// pull fails.
func (o Options) Check() error {
	for _, h := range []struct{ name, value string }{{"registry hostname", o.RegistryHostname}, {"upstream hostname", o.UpstreamHostname}} {
		if h.value == "" {
			continue
		}
		if _, err := newProvider(h.value, "x", "x"); err != nil {
			return fmt.Errorf("check mirror options: %s %q: %w", h.name, h.value, protocol.ErrInvalid)
		}
	}
	if o.Upstream != "" {
		if err := CheckUpstream(o.Upstream); err != nil {
			return fmt.Errorf("check mirror options: %w", err)
		}
	}
	if o.UpstreamTTL < 0 {
		return fmt.Errorf("check mirror options: %w upstream TTL %s: want 0 or more", protocol.ErrInvalid, o.UpstreamTTL)
	}
	if o.Upstream == "" && (o.UpstreamHostname != "" || o.UpstreamClient != nil || o.UpstreamKeys != nil) {
		return fmt.Errorf("check mirror options: %w: upstream settings without an upstream", protocol.ErrInvalid)
	}
	return nil
}

// Server serves a [Store]'s providers over the Provider Network Mirror
// Protocol and its modules over the Module Registry Protocol. It is an
// http.Handler; tofu only uses a mirror or a registry over https, which
// [Server.ListenAndServeTLS] provides.
type Server struct {
	protocol.Base
	store *Store
	mux   *http.ServeMux

	// signingKey, when set, enables the Provider Registry Protocol for
	// the providers under registryHostname.
	signingKey       *SigningKey
	registryHostname string
	// pull is nil without an upstream.
	pull *puller
}

// NewServer returns a server of the store.
func NewServer(store *Store, opts Options) *Server {
	s := &Server{
		Base:  protocol.NewBase(opts.UploadToken, opts.MaxUpload, opts.Logger),
		store: store,
		mux:   http.NewServeMux(),
	}
	s.signingKey = opts.SigningKey
	s.registryHostname = strings.ToLower(cmp.Or(opts.RegistryHostname, DefaultHostname))
	if opts.Upstream != "" {
		ttl := cmp.Or(opts.UpstreamTTL, DefaultUpstreamTTL)
		client := opts.UpstreamClient
		if client == nil {
			client, _ = NewUpstreamClient(nil)
		}
		s.pull = &puller{
			hostname:     strings.ToLower(cmp.Or(opts.UpstreamHostname, DefaultHostname)),
			upstream:     &registryClient{host: opts.Upstream, client: client, ttl: ttl},
			keys:         opts.UpstreamKeys,
			ttl:          ttl,
			maxSize:      s.MaxUpload,
			log:          s.Log,
			versionLists: map[string]cachedVersions{},
			sums:         map[string]verifiedSums{},
		}
	}
	// A provider path has exactly four segments, a module path six or
	// seven under /v1/modules/; anything else is 404, and a method other
	// than these is 405. GET also answers HEAD.
	const pattern = "/{hostname}/{namespace}/{type}/{file}"
	s.mux.HandleFunc("GET "+pattern, s.handleGet)
	s.mux.HandleFunc("GET /.well-known/terraform.json", s.handleDiscovery)
	modules.NewServer(store.Modules, s.Base).Register(s.mux)
	if s.signingKey != nil {
		s.mux.HandleFunc("GET "+registryPattern+"/versions", s.handleRegistryVersions)
		s.mux.HandleFunc("GET "+registryPattern+"/{version}/download/{os}/{arch}", s.handleRegistryDownload)
		s.mux.HandleFunc("GET "+registryPattern+"/{version}/{file}", s.handleRegistrySums)
	}
	if s.UploadToken != "" {
		s.mux.HandleFunc("PUT "+pattern, s.handlePut)
	}
	return s
}

// handleDiscovery serves GET /.well-known/terraform.json, which tells tofu
// where the module registry is and, when the server has a signing key,
// the provider registry: {"modules.v1":"/v1/modules/","providers.v1":"/v1/providers/"}.
// Without a signing key it names no providers.v1: tofu installs no
// unsigned package from a registry, and finds the network mirror through
// its CLI configuration instead.
func (s *Server) handleDiscovery(w http.ResponseWriter, r *http.Request) {
	services := map[string]string{"modules.v1": modules.Path}
	if s.signingKey != nil {
		services["providers.v1"] = ProvidersPath
	}
	protocol.WriteJSON(w, services)
}

// ServeHTTP serves the two protocols, and uploads when enabled.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mux.ServeHTTP(w, r)
}

// handleGet serves a provider's index.json, <version>.json and archives.
// Segments that are not a valid address, version or archive name are 404,
// so no path ever leaves the store.
func (s *Server) handleGet(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	hostname, namespace, typ, file := r.PathValue("hostname"), r.PathValue("namespace"), r.PathValue("type"), r.PathValue("file")
	switch {
	case file == "index.json":
		versions, err := s.mirrorVersions(ctx, hostname, namespace, typ)
		if err != nil {
			s.Fail(w, r, err)
			return
		}
		index := map[string]map[string]struct{}{"versions": {}}
		for _, v := range versions {
			index["versions"][v] = struct{}{}
		}
		protocol.WriteJSON(w, index)
	case strings.HasSuffix(file, ".json"):
		archives, err := s.mirrorArchives(ctx, hostname, namespace, typ, strings.TrimSuffix(file, ".json"))
		if err != nil {
			s.Fail(w, r, err)
			return
		}
		protocol.WriteJSON(w, map[string]map[string]Archive{"archives": archives})
	case strings.HasSuffix(file, ".zip"):
		f, err := s.openArchive(ctx, hostname, namespace, typ, file)
		if err != nil {
			s.Fail(w, r, err)
			return
		}
		defer f.Close()
		w.Header().Set("Content-Type", "application/zip")
		http.ServeContent(w, r, file, f.Info().ModTime, f)
	default:
		http.NotFound(w, r)
	}
}

// ListenAndServeTLS listens on addr (host:port) and serves the mirror over
// https with the certificate and key in the given PEM files, until ctx is
// done. Then it stops accepting connections, lets running requests finish
// for a while, and returns nil.
func (s *Server) ListenAndServeTLS(ctx context.Context, addr, certFile, keyFile string) error {
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("serve mirror on %s: %w", addr, err)
	}
	return s.ServeTLS(ctx, ln, certFile, keyFile)
}

// ServeTLS is [Server.ListenAndServeTLS] on a listener the caller opened,
// e.g. on port 0. It closes the listener.
func (s *Server) ServeTLS(ctx context.Context, ln net.Listener, certFile, keyFile string) error {
	addr := ln.Addr().String()
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		ln.Close()
		return fmt.Errorf("serve mirror on %s: load certificate %s: %w", addr, certFile, err)
	}
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		TLSConfig:         &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{cert}},
		ErrorLog:          slog.NewLogLogger(s.Log.Handler(), slog.LevelDebug),
	}
	done := make(chan error, 1)
	go func() { done <- srv.ServeTLS(ln, "", "") }()
	select {
	case err := <-done:
		return fmt.Errorf("serve mirror on %s: %w", addr, err)
	case <-ctx.Done():
	}
	// Requests do not carry ctx: a download in flight gets its chance to
	// finish.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
		return fmt.Errorf("stop mirror on %s: %w", addr, err)
	}
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve mirror on %s: %w", addr, err)
	}
	return nil
}
