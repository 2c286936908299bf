package modules

import (
	"net/http"

	"github.com/strata-iac/strata/registry-mirror/protocol"
)

// Path is where a [Server] serves the Module Registry Protocol, as
// its service discovery document says: {"modules.v1": "/v1/modules/"}.
const Path = "/v1/modules/"

// pattern is the path of a module, after the method.
const pattern = Path + "{namespace}/{name}/{system}"

// Server serves a [Store]'s modules over the Module Registry Protocol,
// and takes uploads when its Base has an upload token.
type Server struct {
	protocol.Base
	store *Store
}

// NewServer returns a server of the store.
func NewServer(store *Store, base protocol.Base) *Server {
	return &Server{Base: base, store: store}
}

// Register adds the server's routes to mux: a module path has exactly
// three segments under [Path], then versions, <version>/download or
// <version>.tar.gz. GET also answers HEAD; PUT of an archive is routed
// only with an upload token.
func (s *Server) Register(mux *http.ServeMux) {
	mux.HandleFunc("GET "+pattern+"/versions", s.handleVersions)
	mux.HandleFunc("GET "+pattern+"/{version}/download", s.handleDownload)
	mux.HandleFunc("GET "+pattern+"/{file}", s.handleArchive)
	if s.UploadToken != "" {
		mux.HandleFunc("PUT "+pattern+"/{file}", s.handlePut)
	}
}

// moduleVersions is the body of GET <module>/versions.
type moduleVersions struct {
	Modules []moduleVersionList `json:"modules"`
}

type moduleVersionList struct {
	Versions []moduleVersion `json:"versions"`
}

type moduleVersion struct {
	Version string `json:"version"`
}

// handleVersions serves GET /v1/modules/<namespace>/<name>/<system>/versions:
// {"modules":[{"versions":[{"version":"1.0.0"},…]}]}, lowest first; 404
// for a module without versions.
func (s *Server) handleVersions(w http.ResponseWriter, r *http.Request) {
	versions, err := s.store.Versions(r.Context(), r.PathValue("namespace"), r.PathValue("name"), r.PathValue("system"))
	if err != nil {
		s.Fail(w, r, err)
		return
	}
	list := moduleVersionList{Versions: make([]moduleVersion, len(versions))}
	for i, v := range versions {
		list.Versions[i] = moduleVersion{Version: v}
	}
	protocol.WriteJSON(w, moduleVersions{Modules: []moduleVersionList{list}})
}

// handleDownload serves GET /v1/modules/<namespace>/<name>/<system>/<version>/download:
// 204 No Content with the archive's URL in X-Terraform-Get, relative to
// this path (../<version>.tar.gz), which tofu resolves against it; the
// .tar.gz tells tofu to unpack the download. 404 for a version without
// an archive.
func (s *Server) handleDownload(w http.ResponseWriter, r *http.Request) {
	version := r.PathValue("version")
	if err := s.store.stat(r.Context(), r.PathValue("namespace"), r.PathValue("name"), r.PathValue("system"), version); err != nil {
		s.Fail(w, r, err)
		return
	}
	w.Header().Set("X-Terraform-Get", "../"+version+archiveExt)
	w.WriteHeader(http.StatusNoContent)
}

// handleArchive serves GET /v1/modules/<namespace>/<name>/<system>/<version>.tar.gz.
func (s *Server) handleArchive(w http.ResponseWriter, r *http.Request) {
	file := r.PathValue("file")
	version, ok := parseArchiveName(file)
	if !ok {
		http.NotFound(w, r)
		return
	}
	o, err := s.store.open(r.Context(), r.PathValue("namespace"), r.PathValue("name"), r.PathValue("system"), version)
	if err != nil {
		s.Fail(w, r, err)
		return
	}
	defer o.Close()
	w.Header().Set("Content-Type", "application/gzip")
	http.ServeContent(w, r, file, o.Info().ModTime, o)
}

// handlePut serves PUT /v1/modules/<namespace>/<name>/<system>/<version>.tar.gz:
// an upload with the server's bearer token, answered as a provider
// upload is, with 201 and {"module":…,"version":…} when stored.
func (s *Server) handlePut(w http.ResponseWriter, r *http.Request) {
	if !s.Authorized(r) {
		protocol.Unauthorized(w)
		return
	}
	m, err := newModule(r.PathValue("namespace"), r.PathValue("name"), r.PathValue("system"))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	version, ok := parseArchiveName(r.PathValue("file"))
	if !ok {
		http.NotFound(w, r)
		return
	}
	body := http.MaxBytesReader(w, r.Body, s.MaxUpload)
	err = s.store.Add(r.Context(), m.Namespace, m.Name, m.System, version, body)
	if s.FailUpload(w, r, err) {
		return
	}
	s.Log.InfoContext(r.Context(), "module uploaded", "module", m.String(), "version", version)
	protocol.WriteCreated(w, map[string]string{"module": m.String(), "version": version})
}
