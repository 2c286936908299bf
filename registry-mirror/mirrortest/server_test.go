package mirrortest

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestServe(t *testing.T) {
	s := Serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, "ok")
	}))
	if !strings.HasPrefix(s.URL, "https://127.0.0.1:") || !strings.HasSuffix(s.URL, "/") {
		t.Errorf("Serve().URL = %q, want https://127.0.0.1:PORT/", s.URL)
	}
	get := func(path string) {
		t.Helper()
		resp, err := s.Client().Get(s.URL + path)
		if err != nil {
			t.Fatalf("GET %s = %v, want a response", path, err)
		}
		resp.Body.Close()
	}
	get("a")
	get("missing")
	want := []Request{{"GET", "/a", 200}, {"GET", "/missing", 404}}
	if diff := cmp.Diff(want, s.Requests()); diff != "" {
		t.Errorf("Requests() mismatch (-want +got):\n%s", diff)
	}
	s.Reset()
	if got := s.Requests(); len(got) != 0 {
		t.Errorf("Requests() after Reset = %v, want none", got)
	}

	// A client without the CA does not trust the server.
	if _, err := http.Get(s.URL); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("GET %s without the CA = %v, want a certificate error", s.URL, err)
	}

	s.Stop()
	if _, err := s.Client().Get(s.URL + "a"); err == nil {
		t.Errorf("GET after Stop = nil error, want refused")
	}
}
