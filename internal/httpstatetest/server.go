package httpstatetest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Server is an http state backend.
type Server struct {
	// URL is the server's base URL.
	URL string

	user, password string

	mu     sync.Mutex
	states map[string][]byte
	locks  map[string][]byte // the lock info tofu sent, by name
	writes map[string]int
}

// Start serves states to the basic-auth user and password; it stops with
// the test.
func Start(t testing.TB, user, password string) *Server {
	t.Helper()
	s := &Server{user: user, password: password, states: map[string][]byte{}, locks: map[string][]byte{}, writes: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Backend is the module code of a backend block for the state name, its
// credentials left to the caller (username, password: a
// backendConfigsFrom Secret, or the block).
func (s *Server) Backend(name string) string {
	return `backend "http" {
    address        = "` + s.URL + `/state/` + name + `"
    lock_address   = "` + s.URL + `/lock/` + name + `"
    unlock_address = "` + s.URL + `/lock/` + name + `"
  }`
}

// State returns the named state, and whether there is one.
func (s *Server) State(name string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.states[name]
	return b, ok
}

// Writes returns how many times the named state was written.
func (s *Server) Writes(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writes[name]
}

// Lock locks the named state as another holder would, with the lock ID id.
func (s *Server) Lock(name, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.locks[name], _ = json.Marshal(map[string]string{"ID": id, "Operation": "OperationTypeApply", "Who": "someone@elsewhere"})
}

// Unlock releases the named state's lock, as its holder would.
func (s *Server) Unlock(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.locks, name)
}

// Locked reports whether the named state is locked.
func (s *Server) Locked(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.locks[name]
	return ok
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if u, p, ok := r.BasicAuth(); !ok || u != s.user || p != s.password {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	kind, name := split(r.URL.Path)
	switch {
	case kind == "state" && r.Method == http.MethodGet:
		b, ok := s.states[name]
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		w.Write(b)
	case kind == "state" && r.Method == http.MethodPost:
		s.states[name] = body
		s.writes[name]++
	case kind == "state" && r.Method == http.MethodDelete:
		delete(s.states, name)
	case kind == "lock" && r.Method == "LOCK":
		if held, ok := s.locks[name]; ok {
			w.WriteHeader(http.StatusLocked)
			w.Write(held)
			return
		}
		s.locks[name] = body
	case kind == "lock" && r.Method == "UNLOCK":
		// tofu sends the lock it releases; force-unlock an info with
		// the ID alone. Either releases a lock of that ID.
		var held, asked struct{ ID string }
		json.Unmarshal(s.locks[name], &held)
		if err := json.Unmarshal(body, &asked); len(body) > 0 && (err != nil || asked.ID != held.ID) {
			w.WriteHeader(http.StatusConflict)
			w.Write(s.locks[name])
			return
		}
		delete(s.locks, name)
	default:
		http.Error(w, "no such route", http.StatusNotFound)
	}
}

// split cuts /KIND/NAME.
func split(path string) (kind, name string) {
	for i := 1; i < len(path); i++ {
		if path[i] == '/' {
			return path[1:i], path[i+1:]
		}
	}
	return "", ""
}
