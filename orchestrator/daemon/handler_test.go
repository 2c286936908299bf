package daemon_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHandlerBeforeFirstReconcile(t *testing.T) {
	h := newHarness(t, "layered", token)
	tests := []struct {
		method, path string
		wantCode     int
		wantBody     string
	}{
		{"GET", "/healthz", http.StatusOK, "ok\n"},
		{"GET", "/readyz", http.StatusServiceUnavailable, "first reconcile not finished\n"},
		{"POST", "/readyz", http.StatusMethodNotAllowed, ""},
		{"GET", "/nope", http.StatusNotFound, ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			code, body := do(t, h.handler, tt.method, tt.path, "", "")
			if code != tt.wantCode || (tt.wantBody != "" && body != tt.wantBody) {
				t.Errorf("%s %s = %d %q, want %d %q", tt.method, tt.path, code, body, tt.wantCode, tt.wantBody)
			}
		})
	}
	t.Run("metrics", func(t *testing.T) {
		got := scrape(t, h.handler)
		if v, ok := got["strata_ready"]; !ok || v != 0 {
			t.Errorf("strata_ready = %v (present %v), want 0", v, ok)
		}
		for series := range got {
			if strings.HasPrefix(series, "strata_stack_") {
				t.Errorf("metric %s before any reconcile, want no stack series", series)
			}
		}
	})
	t.Run("status", func(t *testing.T) {
		st, _ := status(t, h.handler, token)
		if st.Ready || len(st.Reasons) != 1 || st.Reasons[0] != "first reconcile not finished" || len(st.Environments) != 1 ||
			st.Environments[0].Reconciles != 0 || st.Environments[0].Report != nil {
			t.Errorf("status = %+v, want not ready, first reconcile not finished, one environment without a report", st)
		}
	})
}

func TestAPIToken(t *testing.T) {
	with := newHarness(t, "layered", token).handler
	without := newHarness(t, "layered", "").handler
	endpoints := []struct{ method, path string }{
		{"GET", "/api/v1/status"},
		{"POST", "/api/v1/reconcile"},
		{"POST", "/api/v1/approve"},
	}
	tests := []struct {
		name     string
		handler  http.Handler
		header   string
		wantCode int
		wantBody string
	}{
		{"no token configured", without, "Bearer " + token, http.StatusForbidden, `"error": "no API token configured"`},
		{"no token configured, none sent", without, "", http.StatusForbidden, `"error": "no API token configured"`},
		{"missing token", with, "", http.StatusUnauthorized, `"error": "missing bearer token`},
		{"not a bearer token", with, "Basic " + token, http.StatusUnauthorized, `"error": "missing bearer token`},
		{"empty bearer token", with, "Bearer ", http.StatusUnauthorized, `"error": "missing bearer token`},
		{"wrong token", with, "Bearer wrong", http.StatusUnauthorized, `"error": "invalid bearer token"`},
		{"token with a suffix", with, "Bearer " + token + "x", http.StatusUnauthorized, `"error": "invalid bearer token"`},
		{"token prefix", with, "Bearer " + token[:4], http.StatusUnauthorized, `"error": "invalid bearer token"`},
	}
	for _, tt := range tests {
		for _, ep := range endpoints {
			t.Run(tt.name+" "+ep.path, func(t *testing.T) {
				req := httptest.NewRequest(ep.method, ep.path, nil)
				if tt.header != "" {
					req.Header.Set("Authorization", tt.header)
				}
				w := httptest.NewRecorder()
				tt.handler.ServeHTTP(w, req)
				if w.Code != tt.wantCode || !strings.Contains(w.Body.String(), tt.wantBody) {
					t.Errorf("%s %s with Authorization %q = %d %q, want %d containing %q", ep.method, ep.path, tt.header, w.Code, w.Body.String(), tt.wantCode, tt.wantBody)
				}
				if tt.wantCode == http.StatusUnauthorized && !strings.HasPrefix(w.Header().Get("WWW-Authenticate"), "Bearer") {
					t.Errorf("%s %s with Authorization %q: WWW-Authenticate = %q, want a Bearer challenge", ep.method, ep.path, tt.header, w.Header().Get("WWW-Authenticate"))
				}
			})
		}
	}

	t.Run("right token", func(t *testing.T) {
		if code, body := do(t, with, "GET", "/api/v1/status", token, ""); code != http.StatusOK {
			t.Errorf("GET /api/v1/status with the token = %d %q, want 200", code, body)
		}
		if code, body := do(t, with, "POST", "/api/v1/reconcile", token, ""); code != http.StatusAccepted || !strings.Contains(body, `"triggered": true`) {
			t.Errorf("POST /api/v1/reconcile with the token = %d %q, want 202 triggered", code, body)
		}
	})

	t.Run("open endpoints", func(t *testing.T) {
		for _, path := range []string{"/healthz", "/readyz", "/metrics"} {
			if code, body := do(t, without, "GET", path, "", ""); code == http.StatusForbidden || code == http.StatusUnauthorized {
				t.Errorf("GET %s without a token configured = %d %q, want it open", path, code, body)
			}
		}
	})
}
