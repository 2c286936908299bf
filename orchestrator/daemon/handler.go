package daemon

import (
	"cmp"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Handler serves health, readiness, metrics and the API. See the package
// documentation for the endpoints.
func (d *Daemon) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", d.handleHealthz)
	mux.HandleFunc("GET /readyz", d.handleReadyz)
	mux.Handle("GET /metrics", d.metricsHandler())
	mux.Handle("GET /api/v1/status", d.authorize(d.cfg.Token, http.HandlerFunc(d.handleStatus)))
	mux.Handle("POST /api/v1/reconcile", d.authorize(d.cfg.Token, http.HandlerFunc(d.handleReconcile)))
	// Approving needs the approver token, when one is configured.
	mux.Handle("POST /api/v1/approve", d.authorize(cmp.Or(d.cfg.ApproverToken, d.cfg.Token), http.HandlerFunc(d.handleApprove)))
	if d.web != nil {
		mux.Handle("/", d.web.Handler())
	}
	return mux
}

// handleHealthz answers while the process runs.
func (d *Daemon) handleHealthz(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintln(w, "ok")
}

// authorize lets through requests that carry the bearer token. Without a
// configured token every request is refused: the API is never open by
// accident.
func (d *Daemon) authorize(token string, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if token == "" {
			writeError(w, http.StatusForbidden, "no API token configured")
			return
		}
		token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || token == "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="strata"`)
			writeError(w, http.StatusUnauthorized, "missing bearer token: send Authorization: Bearer <token>")
			return
		}
		// Hashing first makes the comparison's time independent of the
		// token's length too.
		got := sha256.Sum256([]byte(token))
		if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="strata", error="invalid_token"`)
			writeError(w, http.StatusUnauthorized, "invalid bearer token")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Triggered is what POST /api/v1/reconcile answers.
type Triggered struct {
	Triggered bool `json:"triggered"`
}

func (d *Daemon) handleReconcile(w http.ResponseWriter, _ *http.Request) {
	d.Trigger()
	d.log.Info("reconcile requested over the API")
	writeJSON(w, http.StatusAccepted, Triggered{Triggered: true})
}

// apiError is the body of every API error.
type apiError struct {
	Error    string `json:"error"`
	Problems any    `json:"problems,omitempty"`
}

func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, apiError{Error: msg})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	// The status line is sent: a client that went away is all that can
	// fail here.
	_ = enc.Encode(v)
}
