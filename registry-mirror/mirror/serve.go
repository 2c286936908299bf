package mirror

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"time"

	"github.com/strata-iac/strata/registry-mirror/modules"
	"github.com/strata-iac/strata/registry-mirror/protocol"
	"github.com/strata-iac/strata/registry-mirror/providers"
)

// shutdownTimeout is how long a stopping server lets running requests,
// such as a package download, finish.
const shutdownTimeout = 30 * time.Second

// Options configure a [Server]: the providers' options, whose upload
// token, size limit and logger are the modules' too.
type Options = providers.Options

// Server serves a [Store]: its providers over the Provider Network Mirror
// Protocol (and the Provider Registry Protocol with a signing key, and as
// a pull-through cache with an upstream), its modules over the Module
// Registry Protocol, and the service discovery document that names them.
// It is an http.Handler; tofu only uses a mirror or a registry over
// https, which [Server.ListenAndServeTLS] provides.
type Server struct {
	log      *slog.Logger
	mux      *http.ServeMux
	services map[string]string
}

// NewServer returns a server of the store, for options that passed
// [providers.Options.Check].
func NewServer(store *Store, opts Options) *Server {
	prov := providers.NewServer(store.Providers, opts)
	mods := modules.NewServer(store.Modules, prov.Base)
	s := &Server{log: prov.Log, mux: http.NewServeMux(), services: map[string]string{"modules.v1": modules.Path}}
	maps.Copy(s.services, prov.Services())
	// Anything but the routes below is 404, and a method other than
	// theirs is 405.
	s.mux.HandleFunc("GET "+protocol.DiscoveryPath, s.handleDiscovery)
	prov.Register(s.mux)
	mods.Register(s.mux)
	return s
}

// handleDiscovery serves GET /.well-known/terraform.json, which tells tofu
// where the module registry is and, when the server has a signing key,
// the provider registry: {"modules.v1":"/v1/modules/","providers.v1":"/v1/providers/"}.
func (s *Server) handleDiscovery(w http.ResponseWriter, r *http.Request) {
	protocol.WriteJSON(w, s.services)
}

// ServeHTTP serves the protocols, and uploads when enabled.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mux.ServeHTTP(w, r)
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
