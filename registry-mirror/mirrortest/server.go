package mirrortest

import (
	"crypto/tls"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
)

// Request is one request a [Server] answered.
type Request struct {
	Method string
	Path   string
	Status int
}

// Server is an https server on a free loopback port, with a certificate
// from its own CA, that records every request it answers.
type Server struct {
	// URL is the server's base URL, https://127.0.0.1:PORT/.
	URL string
	// Certs are the CA and the certificate the server presents.
	Certs Certs

	srv      *httptest.Server
	mu       sync.Mutex
	requests []Request
}

// Serve serves h over https until the test ends or Stop is called.
func Serve(t testing.TB, h http.Handler) *Server {
	t.Helper()
	certs := TLS(t)
	cert, err := tls.LoadX509KeyPair(certs.CertFile, certs.KeyFile)
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Certs: certs}
	s.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(rec, r)
		s.mu.Lock()
		s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Status: rec.status})
		s.mu.Unlock()
	}))
	// A client that does not trust the CA is a case tests make on
	// purpose; its handshake error is not worth a line on stderr.
	s.srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	s.srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	s.srv.StartTLS()
	s.URL = s.srv.URL + "/"
	t.Cleanup(s.Stop)
	return s
}

// Client returns an https client that trusts the server's CA.
func (s *Server) Client() *http.Client { return s.Certs.Client() }

// Requests returns the requests answered so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Reset forgets the requests answered so far.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = nil
}

// Stop closes the server; later connections are refused. It may be called
// more than once.
func (s *Server) Stop() { s.srv.Close() }

// statusRecorder remembers the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the connection.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
