package probe

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestHandler(t *testing.T) {
	tests := []struct {
		name     string
		ready    Check
		path     string
		wantCode int
		wantBody string
	}{
		{"healthz", func() (string, error) { return "", errors.New("not ready") }, "/healthz", http.StatusOK, "ok\n"},
		{"ready", func() (string, error) { return "leads the lease strata-system/strata", nil }, "/readyz", http.StatusOK, "leads the lease strata-system/strata\n"},
		{"not ready", func() (string, error) { return "", errors.New("no leader seen yet on the lease strata-system/strata") }, "/readyz", http.StatusServiceUnavailable, "no leader seen yet on the lease strata-system/strata\n"},
		{"unknown path", func() (string, error) { return "ok", nil }, "/metrics", http.StatusNotFound, "404 page not found\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			Handler(tt.ready).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tt.path, nil))
			body, _ := io.ReadAll(rec.Result().Body)
			if rec.Code != tt.wantCode || string(body) != tt.wantBody {
				t.Errorf("GET %s = %d %q, want %d %q", tt.path, rec.Code, body, tt.wantCode, tt.wantBody)
			}
		})
	}
}
