package tfetest

import (
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Server is a fake HCP Terraform API with one organization.
type Server struct {
	// Host is what a cloud block's hostname and a CLI configuration's
	// credentials block name it by: 127.0.0.1:PORT.
	Host string
	// CAFile is the PEM file of the certificate tofu must trust.
	CAFile string

	url, org, token string

	mu           sync.Mutex
	workspaces   map[string]*workspace // by name
	versions     map[string]*version   // by id
	unauthorized int
}

type workspace struct {
	id, name string
	locked   bool
	current  string // the current state version's id
}

type version struct {
	id           string
	serial       int
	lineage, md5 string
	state, json  []byte
	outputs      map[string]output
}

type output struct {
	Sensitive bool            `json:"sensitive"`
	Value     json.RawMessage `json:"value"`
	Type      json.RawMessage `json:"type"`
}

// Start serves the API of organization org, which answers only requests
// that carry token; it stops with the test.
func Start(t testing.TB, org, token string) *Server {
	t.Helper()
	s := &Server{org: org, token: token, workspaces: map[string]*workspace{}, versions: map[string]*version{}}
	srv := httptest.NewUnstartedServer(s.routes())
	// A client that gives up on a handshake (tofu's retries) is no
	// failure of the test's.
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	s.url, s.Host = srv.URL, srv.Listener.Addr().String()
	s.CAFile = filepath.Join(t.TempDir(), "tfe-ca.pem")
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(s.CAFile, ca, 0o600); err != nil {
		t.Fatal(err)
	}
	return s
}

// State returns the state of the workspace's current state version.
func (s *Server) State(name string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ws := s.workspaces[name]
	if ws == nil || ws.current == "" {
		return nil, false
	}
	return s.versions[ws.current].state, true
}

// Versions returns how many state versions the workspace has had.
func (s *Server) Versions(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	if ws := s.workspaces[name]; ws != nil {
		for _, v := range s.versions {
			if strings.HasPrefix(v.id, ws.id+"-") {
				n++
			}
		}
	}
	return n
}

// Lock locks the workspace as another holder would, and reports whether
// it was unlocked before.
func (s *Server) Lock(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	ws := s.workspace(name)
	was := ws.locked
	ws.locked = true
	return !was
}

// Locked reports whether the workspace is locked.
func (s *Server) Locked(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	ws := s.workspaces[name]
	return ws != nil && ws.locked
}

// Unauthorized returns how many requests came without the token.
func (s *Server) Unauthorized() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.unauthorized
}

// workspace returns the named workspace, made when it is new; s.mu is
// held.
func (s *Server) workspace(name string) *workspace {
	ws := s.workspaces[name]
	if ws == nil {
		ws = &workspace{id: fmt.Sprintf("ws-%04d", len(s.workspaces)+1), name: name}
		s.workspaces[name] = ws
	}
	return ws
}

func (s *Server) byID(id string) *workspace {
	for _, ws := range s.workspaces {
		if ws.id == id {
			return ws
		}
	}
	return nil
}

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	api := func(pattern string, h func(w http.ResponseWriter, r *http.Request)) {
		mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "Bearer "+s.token {
				s.mu.Lock()
				s.unauthorized++
				s.mu.Unlock()
				writeErrors(w, http.StatusUnauthorized, "unauthorized")
				return
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			h(w, r)
		})
	}
	api("GET /.well-known/terraform.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"tfe.v2":"/api/v2/"}`)
	})
	api("GET /api/v2/ping", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("TFP-API-Version", "2.6")
		w.WriteHeader(http.StatusNoContent)
	})
	api("GET /api/v2/organizations/{org}/entitlement-set", func(w http.ResponseWriter, r *http.Request) {
		if !s.orgOf(w, r) {
			return
		}
		writeDoc(w, http.StatusOK, map[string]any{"id": "org-" + s.org, "type": "entitlement-sets",
			"attributes": map[string]any{"operations": false, "state-storage": true}})
	})
	api("GET /api/v2/organizations/{org}/workspaces/{name}", func(w http.ResponseWriter, r *http.Request) {
		if !s.orgOf(w, r) {
			return
		}
		ws := s.workspaces[r.PathValue("name")]
		if ws == nil {
			writeErrors(w, http.StatusNotFound, "not found")
			return
		}
		writeDoc(w, http.StatusOK, s.wsDoc(ws))
	})
	api("POST /api/v2/organizations/{org}/workspaces", func(w http.ResponseWriter, r *http.Request) {
		if !s.orgOf(w, r) {
			return
		}
		var body struct {
			Data struct {
				Attributes struct {
					Name string `json:"name"`
				} `json:"attributes"`
			} `json:"data"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.Data.Attributes.Name == "" {
			writeErrors(w, http.StatusUnprocessableEntity, "a workspace needs a name")
			return
		}
		writeDoc(w, http.StatusCreated, s.wsDoc(s.workspace(body.Data.Attributes.Name)))
	})
	api("PATCH /api/v2/workspaces/{id}", func(w http.ResponseWriter, r *http.Request) {
		if ws := s.wsOf(w, r); ws != nil {
			writeDoc(w, http.StatusOK, s.wsDoc(ws))
		}
	})
	api("POST /api/v2/workspaces/{id}/actions/{action}", func(w http.ResponseWriter, r *http.Request) {
		ws := s.wsOf(w, r)
		if ws == nil {
			return
		}
		switch r.PathValue("action") {
		case "lock":
			if ws.locked {
				writeErrors(w, http.StatusConflict, "workspace already locked")
				return
			}
			ws.locked = true
		case "unlock", "force-unlock":
			if !ws.locked {
				writeErrors(w, http.StatusConflict, "workspace already unlocked")
				return
			}
			ws.locked = false
		default:
			writeErrors(w, http.StatusNotFound, "no such action")
			return
		}
		writeDoc(w, http.StatusOK, s.wsDoc(ws))
	})
	api("GET /api/v2/workspaces/{id}/current-state-version", func(w http.ResponseWriter, r *http.Request) {
		ws := s.wsOf(w, r)
		if ws == nil {
			return
		}
		if ws.current == "" {
			writeErrors(w, http.StatusNotFound, "no state")
			return
		}
		writeDoc(w, http.StatusOK, s.svDoc(s.versions[ws.current]))
	})
	api("POST /api/v2/workspaces/{id}/state-versions", func(w http.ResponseWriter, r *http.Request) {
		ws := s.wsOf(w, r)
		if ws == nil {
			return
		}
		var body struct {
			Data struct {
				Attributes struct {
					Serial  int    `json:"serial"`
					MD5     string `json:"md5"`
					Lineage string `json:"lineage"`
					Outputs string `json:"json-state-outputs"`
				} `json:"attributes"`
			} `json:"data"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			writeErrors(w, http.StatusBadRequest, err.Error())
			return
		}
		if !ws.locked {
			writeErrors(w, http.StatusConflict, "the workspace must be locked to write its state")
			return
		}
		a := body.Data.Attributes
		v := &version{id: fmt.Sprintf("%s-sv-%04d", ws.id, len(s.versions)+1), serial: a.Serial, lineage: a.Lineage, md5: a.MD5}
		if raw, err := base64.StdEncoding.DecodeString(a.Outputs); err == nil && len(raw) > 0 {
			if err := json.Unmarshal(raw, &v.outputs); err != nil {
				writeErrors(w, http.StatusBadRequest, "json-state-outputs: "+err.Error())
				return
			}
		}
		s.versions[v.id] = v
		ws.current = v.id
		writeDoc(w, http.StatusCreated, s.svDoc(v))
	})
	api("GET /api/v2/state-versions/{sv}", func(w http.ResponseWriter, r *http.Request) {
		if v := s.versions[r.PathValue("sv")]; v != nil {
			writeDoc(w, http.StatusOK, s.svDoc(v))
			return
		}
		writeErrors(w, http.StatusNotFound, "no such state version")
	})
	api("GET /_blob/{sv}/state", func(w http.ResponseWriter, r *http.Request) {
		v := s.versions[r.PathValue("sv")]
		if v == nil {
			writeErrors(w, http.StatusNotFound, "no such state version")
			return
		}
		w.Write(v.state)
	})
	api("GET /api/v2/workspaces/{id}/current-state-version-outputs", func(w http.ResponseWriter, r *http.Request) {
		ws := s.wsOf(w, r)
		if ws == nil {
			return
		}
		items := []any{}
		if ws.current != "" {
			v := s.versions[ws.current]
			for name, o := range v.outputs {
				items = append(items, outputDoc(v, name, o, false))
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{"data": items,
			"meta": map[string]any{"pagination": map[string]any{"current-page": 1, "total-pages": 1, "total-count": len(items)}}})
	})
	api("GET /api/v2/state-version-outputs/{id}", func(w http.ResponseWriter, r *http.Request) {
		for _, v := range s.versions {
			for name, o := range v.outputs {
				if outputID(v, name) == r.PathValue("id") {
					writeDoc(w, http.StatusOK, outputDoc(v, name, o, true))
					return
				}
			}
		}
		writeErrors(w, http.StatusNotFound, "no such output")
	})
	// The uploads carry no token: their URLs are the state version's.
	mux.HandleFunc("PUT /_upload/{sv}/{kind}", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			writeErrors(w, http.StatusBadRequest, err.Error())
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		v := s.versions[r.PathValue("sv")]
		if v == nil {
			writeErrors(w, http.StatusNotFound, "no such state version")
			return
		}
		switch r.PathValue("kind") {
		case "state":
			if sum := md5.Sum(body); v.md5 != "" && hex.EncodeToString(sum[:]) != v.md5 {
				writeErrors(w, http.StatusUnprocessableEntity, "the state's md5 is not the one the state version names")
				return
			}
			v.state = body
		case "json":
			v.json = body
		}
		w.WriteHeader(http.StatusOK)
	})
	return mux
}

func (s *Server) orgOf(w http.ResponseWriter, r *http.Request) bool {
	if r.PathValue("org") != s.org {
		writeErrors(w, http.StatusNotFound, "organization not found")
		return false
	}
	return true
}

func (s *Server) wsOf(w http.ResponseWriter, r *http.Request) *workspace {
	ws := s.byID(r.PathValue("id"))
	if ws == nil {
		writeErrors(w, http.StatusNotFound, "workspace not found")
	}
	return ws
}

func (s *Server) wsDoc(ws *workspace) map[string]any {
	return map[string]any{"id": ws.id, "type": "workspaces",
		"attributes": map[string]any{
			"name": ws.name, "execution-mode": "local", "operations": false, "terraform-version": "latest", "locked": ws.locked,
			"actions":     map[string]any{"is-destroyable": true},
			"permissions": map[string]any{"can-lock": true, "can-unlock": true, "can-force-unlock": true, "can-queue-run": true, "can-read-settings": true, "can-update": true},
		},
		"relationships": map[string]any{"organization": map[string]any{"data": map[string]any{"id": s.org, "type": "organizations"}}},
	}
}

func (s *Server) svDoc(v *version) map[string]any {
	blob := s.url + "/_blob/" + v.id
	upload := s.url + "/_upload/" + v.id
	return map[string]any{"id": v.id, "type": "state-versions",
		"attributes": map[string]any{
			"serial": v.serial, "status": "finalized", "resources-processed": true,
			"hosted-state-download-url": blob + "/state", "hosted-json-state-download-url": blob + "/json",
			"hosted-state-upload-url": upload + "/state", "hosted-json-state-upload-url": upload + "/json",
		},
	}
}

func outputID(v *version, name string) string { return "wsout-" + v.id + "-" + name }

// outputDoc is an output as the list shows it (a sensitive one without
// its value) or, revealed, as its own read does.
func outputDoc(v *version, name string, o output, revealed bool) map[string]any {
	value := o.Value
	if o.Sensitive && !revealed {
		value = nil
	}
	return map[string]any{"id": outputID(v, name), "type": "state-version-outputs",
		"attributes": map[string]any{"name": name, "sensitive": o.Sensitive, "value": value, "detailed-type": o.Type}}
}

func writeDoc(w http.ResponseWriter, code int, data map[string]any) {
	writeJSON(w, code, map[string]any{"data": data})
}

func writeErrors(w http.ResponseWriter, code int, detail string) {
	writeJSON(w, code, map[string]any{"errors": []any{map[string]any{"status": fmt.Sprint(code), "title": http.StatusText(code), "detail": detail}}})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/vnd.api+json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}
