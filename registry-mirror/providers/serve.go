package providers

import (
	"cmp"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/strata-iac/strata/internal/deadline"
	"github.com/strata-iac/strata/registry-mirror/protocol"
)

// Options configure a [Server]; the upload token, size limit and logger
// are the whole mirror's.
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
	// Provider Registry Protocol under [Path] (and names it as
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
	// UpstreamTimeout is how long a request to the upstream may wait for
	// its answer to start (connecting and TLS included); 0 means
	// [DefaultUpstreamTimeout]. A body then takes as long as it does.
	UpstreamTimeout time.Duration
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
	if o.UpstreamTimeout < 0 {
		return fmt.Errorf("check mirror options: %w upstream timeout %s: want 0 or more", protocol.ErrInvalid, o.UpstreamTimeout)
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
// Protocol and, with a signing key, the Provider Registry Protocol; with
// an upstream it is a pull-through cache. [Server.Register] adds its
// routes to a mux.
type Server struct {
	protocol.Base
	store *Store

	// signingKey, when set, enables the Provider Registry Protocol for
	// the providers under registryHostname.
	signingKey       *SigningKey
	registryHostname string
	// pull is nil without an upstream.
	pull *puller
}

// NewServer returns a server of the store, for checked options.
func NewServer(store *Store, opts Options) *Server {
	s := &Server{
		Base:  protocol.NewBase(opts.UploadToken, opts.MaxUpload, opts.Logger),
		store: store,
	}
	s.signingKey = opts.SigningKey
	s.registryHostname = strings.ToLower(cmp.Or(opts.RegistryHostname, DefaultHostname))
	if opts.Upstream != "" {
		ttl := cmp.Or(opts.UpstreamTTL, DefaultUpstreamTTL)
		client := opts.UpstreamClient
		if client == nil {
			client, _ = NewUpstreamClient(nil)
		}
		bounded := *client
		bounded.Transport = deadline.HeaderTimeout(cmp.Or[http.RoundTripper](client.Transport, http.DefaultTransport), cmp.Or(opts.UpstreamTimeout, DefaultUpstreamTimeout))
		client = &bounded
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
	return s
}

// Register adds the server's routes to mux. A provider path has exactly
// four segments; the Provider Registry Protocol's paths are under [Path],
// and routed only with a signing key; PUT of an archive is routed only
// with an upload token. GET also answers HEAD.
func (s *Server) Register(mux *http.ServeMux) {
	const pattern = "/{hostname}/{namespace}/{type}/{file}"
	mux.HandleFunc("GET "+pattern, s.handleGet)
	if s.signingKey != nil {
		mux.HandleFunc("GET "+registryPattern+"/versions", s.handleRegistryVersions)
		mux.HandleFunc("GET "+registryPattern+"/{version}/download/{os}/{arch}", s.handleRegistryDownload)
		mux.HandleFunc("GET "+registryPattern+"/{version}/{file}", s.handleRegistrySums)
	}
	if s.UploadToken != "" {
		mux.HandleFunc("PUT "+pattern, s.handlePut)
	}
}

// Services are the server's entries in a service discovery document:
// providers.v1 with a signing key, none without. tofu installs no
// unsigned package from a registry, and finds a network mirror through
// its CLI configuration instead.
func (s *Server) Services() map[string]string {
	if s.signingKey == nil {
		return nil
	}
	return map[string]string{"providers.v1": Path}
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
