package mirror

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"
)

// DefaultMaxUpload is the largest archive a PUT may carry unless
// [Options] say otherwise. The largest providers' archives are a few
// hundred megabytes.
const DefaultMaxUpload int64 = 2 << 30

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
	// [DefaultMaxUpload].
	MaxUpload int64
	// Logger gets a line per upload and per failed request; nil discards
	// them.
	Logger *slog.Logger
}

// Server serves a [Store]'s providers over the Provider Network Mirror
// Protocol and its modules over the Module Registry Protocol. It is an
// http.Handler; tofu only uses a mirror or a registry over https, which
// [Server.ListenAndServeTLS] provides.
type Server struct {
	store       *Store
	uploadToken string
	maxUpload   int64
	log         *slog.Logger
	mux         *http.ServeMux
}

// NewServer returns a server of the store.
func NewServer(store *Store, opts Options) *Server {
	s := &Server{
		store:       store,
		uploadToken: opts.UploadToken,
		maxUpload:   opts.MaxUpload,
		log:         opts.Logger,
		mux:         http.NewServeMux(),
	}
	if s.maxUpload <= 0 {
		s.maxUpload = DefaultMaxUpload
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	// A provider path has exactly four segments, a module path six or
	// seven under /v1/modules/; anything else is 404, and a method other
	// than these is 405. GET also answers HEAD.
	const pattern = "/{hostname}/{namespace}/{type}/{file}"
	s.mux.HandleFunc("GET "+pattern, s.handleGet)
	s.mux.HandleFunc("GET /.well-known/terraform.json", s.handleDiscovery)
	s.mux.HandleFunc("GET "+modulePattern+"/versions", s.handleModuleVersions)
	s.mux.HandleFunc("GET "+modulePattern+"/{version}/download", s.handleModuleDownload)
	s.mux.HandleFunc("GET "+modulePattern+"/{file}", s.handleModuleArchive)
	if s.uploadToken != "" {
		s.mux.HandleFunc("PUT "+pattern, s.handlePut)
		s.mux.HandleFunc("PUT "+modulePattern+"/{file}", s.handleModulePut)
	}
	return s
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
		versions, err := s.store.Versions(ctx, hostname, namespace, typ)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		index := map[string]map[string]struct{}{"versions": {}}
		for _, v := range versions {
			index["versions"][v] = struct{}{}
		}
		writeJSON(w, index)
	case strings.HasSuffix(file, ".json"):
		archives, err := s.store.Archives(ctx, hostname, namespace, typ, strings.TrimSuffix(file, ".json"))
		if err != nil {
			s.fail(w, r, err)
			return
		}
		writeJSON(w, map[string]map[string]Archive{"archives": archives})
	case strings.HasSuffix(file, ".zip"):
		f, err := s.store.openArchive(ctx, hostname, namespace, typ, file)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		defer f.Close()
		w.Header().Set("Content-Type", "application/zip")
		http.ServeContent(w, r, file, f.info().modTime, f)
	default:
		http.NotFound(w, r)
	}
}

// fail answers a failed GET: 404 for what the store does not have or
// cannot name, 500 otherwise (tofu would read a 404 as "no such provider"
// or "no such module").
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, ErrNotFound) || errors.Is(err, ErrInvalid) {
		http.NotFound(w, r)
		return
	}
	s.log.ErrorContext(r.Context(), "mirror request failed", "path", r.URL.Path, "err", err)
	http.Error(w, "internal error", http.StatusInternalServerError)
}

// writeJSON writes an index. tofu requires exactly application/json.
func writeJSON(w http.ResponseWriter, v any) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(append(data, '\n'))
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
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
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
