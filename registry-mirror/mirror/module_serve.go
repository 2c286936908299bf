package mirror

import (
	"net/http"

	"github.com/strata-iac/strata/registry-mirror/protocol"
)

// ModulesPath is where a [Server] serves the Module Registry Protocol, as
// its service discovery document says: {"modules.v1": "/v1/modules/"}.
const ModulesPath = "/v1/modules/"

// modulePattern is the path of a module, after the method.
const modulePattern = ModulesPath + "{namespace}/{name}/{system}"

// handleDiscovery serves GET /.well-known/terraform.json, which tells tofu
// where the module registry is and, when the server has a signing key,
// the provider registry: {"modules.v1":"/v1/modules/","providers.v1":"/v1/providers/"}.
// Without a signing key it names no providers.v1: tofu installs no
// unsigned package from a registry, and finds the network mirror through
// its CLI configuration instead.
func (s *Server) handleDiscovery(w http.ResponseWriter, r *http.Request) {
	services := map[string]string{"modules.v1": ModulesPath}
	if s.signingKey != nil {
		services["providers.v1"] = ProvidersPath
	}
	protocol.WriteJSON(w, services)
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

// handleModuleVersions serves GET /v1/modules/<namespace>/<name>/<system>/versions:
// {"modules":[{"versions":[{"version":"1.0.0"},…]}]}, lowest first; 404
// for a module without versions.
func (s *Server) handleModuleVersions(w http.ResponseWriter, r *http.Request) {
	versions, err := s.store.ModuleVersions(r.Context(), r.PathValue("namespace"), r.PathValue("name"), r.PathValue("system"))
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

// handleModuleDownload serves GET /v1/modules/<namespace>/<name>/<system>/<version>/download:
// 204 No Content with the archive's URL in X-Terraform-Get, relative to
// this path (../<version>.tar.gz), which tofu resolves against it; the
// .tar.gz tells tofu to unpack the download. 404 for a version without
// an archive.
func (s *Server) handleModuleDownload(w http.ResponseWriter, r *http.Request) {
	version := r.PathValue("version")
	if err := s.store.statModule(r.Context(), r.PathValue("namespace"), r.PathValue("name"), r.PathValue("system"), version); err != nil {
		s.Fail(w, r, err)
		return
	}
	w.Header().Set("X-Terraform-Get", "../"+version+moduleArchiveExt)
	w.WriteHeader(http.StatusNoContent)
}

// handleModuleArchive serves GET /v1/modules/<namespace>/<name>/<system>/<version>.tar.gz.
func (s *Server) handleModuleArchive(w http.ResponseWriter, r *http.Request) {
	file := r.PathValue("file")
	version, ok := parseModuleArchiveName(file)
	if !ok {
		http.NotFound(w, r)
		return
	}
	o, err := s.store.openModule(r.Context(), r.PathValue("namespace"), r.PathValue("name"), r.PathValue("system"), version)
	if err != nil {
		s.Fail(w, r, err)
		return
	}
	defer o.Close()
	w.Header().Set("Content-Type", "application/gzip")
	http.ServeContent(w, r, file, o.Info().ModTime, o)
}

// handleModulePut serves PUT /v1/modules/<namespace>/<name>/<system>/<version>.tar.gz:
// an upload with the server's bearer token, answered as a provider
// upload is, with 201 and {"module":…,"version":…} when stored.
func (s *Server) handleModulePut(w http.ResponseWriter, r *http.Request) {
	if !s.Authorized(r) {
		protocol.Unauthorized(w)
		return
	}
	m, err := newModule(r.PathValue("namespace"), r.PathValue("name"), r.PathValue("system"))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	version, ok := parseModuleArchiveName(r.PathValue("file"))
	if !ok {
		http.NotFound(w, r)
		return
	}
	body := http.MaxBytesReader(w, r.Body, s.MaxUpload)
	err = s.store.AddModule(r.Context(), m.Namespace, m.Name, m.System, version, body)
	if s.FailUpload(w, r, err) {
		return
	}
	s.Log.InfoContext(r.Context(), "module uploaded", "module", m.String(), "version", version)
	protocol.WriteCreated(w, map[string]string{"module": m.String(), "version": version})
}
