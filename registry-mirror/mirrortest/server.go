package mirrortest

import (
	"crypto/tls"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
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

// Host is the server's host:port, as a registry host in a source address.
func (s *Server) Host() string {
	return strings.TrimSuffix(strings.TrimPrefix(s.URL, "https://"), "/")
}

// UniquePaths are the paths of reqs, each once, in the order first asked.
func UniquePaths(reqs []Request) []string {
	var paths []string
	for _, r := range reqs {
		if !slices.Contains(paths, r.Path) {
			paths = append(paths, r.Path)
		}
	}
	return paths
}

// Count is how many GETs of path in reqs were answered 200.
func Count(reqs []Request, path string) int {
	n := 0
	for _, r := range reqs {
		if r.Path == path && r.Method == http.MethodGet && r.Status == http.StatusOK {
			n++
		}
	}
	return n
}

// Logger is a logger that writes to the test's log.
func Logger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, nil))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// RewriteResponses wraps a handler so that f rewrites its answers to
// paths ending in suffix.
func RewriteResponses(suffix string, f func([]byte) []byte) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !strings.HasSuffix(r.URL.Path, suffix) {
				h.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			header := w.Header()
			for k, v := range rec.Header() {
				header[k] = v
			}
			header.Del("Content-Length")
			w.WriteHeader(rec.Code)
			w.Write(f(rec.Body.Bytes()))
		})
	}
}
