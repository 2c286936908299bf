package providers

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/strata-iac/strata/registry-mirror/protocol"
	"golang.org/x/mod/semver"
)

// Path is where a [Server] with a signing key serves the
// Provider Registry Protocol, as its service discovery document says:
// {"providers.v1": "/v1/providers/"}.
const Path = "/v1/providers/"

// registryPattern is the path of a provider under Path, after
// the method.
const registryPattern = Path + "{namespace}/{type}"

// The Provider Registry Protocol's documents.
type (
	// registryVersions is the body of GET <provider>/versions.
	registryVersions struct {
		Versions []registryVersion `json:"versions"`
		Warnings []string          `json:"warnings,omitempty"`
	}
	registryVersion struct {
		Version string `json:"version"`
		// Protocols are the plugin protocol versions the provider speaks,
		// such as "5.0" or "6.0".
		Protocols []string           `json:"protocols"`
		Platforms []registryPlatform `json:"platforms"`
	}
	registryPlatform struct {
		OS   string `json:"os"`
		Arch string `json:"arch"`
	}
	// registryDownload is the body of GET <provider>/<version>/download/<os>/<arch>.
	registryDownload struct {
		Protocols           []string            `json:"protocols"`
		OS                  string              `json:"os"`
		Arch                string              `json:"arch"`
		Filename            string              `json:"filename"`
		DownloadURL         string              `json:"download_url"`
		SHASumsURL          string              `json:"shasums_url"`
		SHASumsSignatureURL string              `json:"shasums_signature_url"`
		SHASum              string              `json:"shasum"`
		SigningKeys         registrySigningKeys `json:"signing_keys"`
	}
	registrySigningKeys struct {
		GPGPublicKeys []registryGPGKey `json:"gpg_public_keys"`
	}
	registryGPGKey struct {
		KeyID          string `json:"key_id"`
		ASCIIArmor     string `json:"ascii_armor"`
		TrustSignature string `json:"trust_signature"`
		Source         string `json:"source,omitempty"`
	}
)

// registryProvider is the provider of the store that a Provider Registry
// Protocol path names: <namespace>/<type> on the server's registry
// hostname. ok is false for a malformed path.
func (s *Server) registryProvider(r *http.Request) (Provider, bool) {
	p, err := newProvider(s.registryHostname, r.PathValue("namespace"), r.PathValue("type"))
	return p, err == nil
}

// handleRegistryVersions serves GET /v1/providers/<namespace>/<type>/versions:
// every version of the provider with its platforms, lowest first.
func (s *Server) handleRegistryVersions(w http.ResponseWriter, r *http.Request) {
	p, ok := s.registryProvider(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	versions, err := s.registryVersions(r.Context(), p)
	if err != nil {
		s.Fail(w, r, err)
		return
	}
	protocol.WriteJSON(w, registryVersions{Versions: versions})
}

// registryVersions lists the versions of a provider: those the store
// holds and, when the provider is pulled through, those the upstream
// lists.
func (s *Server) registryVersions(ctx context.Context, p Provider) ([]registryVersion, error) {
	_, archives, err := s.store.scan(ctx, p.Hostname, p.Namespace, p.Type)
	if err != nil {
		return nil, fmt.Errorf("list versions of %s: %w", p, err)
	}
	byVersion := map[string]*registryVersion{}
	for _, a := range archives {
		v := byVersion[a.version]
		if v == nil {
			v = &registryVersion{Version: a.version, Protocols: []string{}}
			byVersion[a.version] = v
		}
		v.Platforms = append(v.Platforms, registryPlatform{OS: a.os, Arch: a.arch})
	}
	if s.pull.covers(p) {
		up, err := s.pull.versions(ctx, p)
		switch {
		case err == nil:
			for _, uv := range up {
				v := byVersion[uv.Version]
				if v == nil {
					v = &registryVersion{Version: uv.Version}
					byVersion[uv.Version] = v
				}
				v.Protocols = uv.Protocols
				for _, pl := range uv.Platforms {
					if !slices.Contains(v.Platforms, pl) {
						v.Platforms = append(v.Platforms, pl)
					}
				}
			}
		case len(byVersion) == 0:
			return nil, err
		case errors.Is(err, protocol.ErrNotFound):
		default:
			s.Log.WarnContext(ctx, "upstream unavailable, listing the versions held", "provider", p.String(), "err", err)
		}
	}
	if len(byVersion) == 0 {
		return nil, fmt.Errorf("list versions of %s: %w", p, protocol.ErrNotFound)
	}
	versions := make([]registryVersion, 0, len(byVersion))
	for _, key := range slices.SortedFunc(maps.Keys(byVersion), compareVersions) {
		v := byVersion[key]
		if v.Protocols == nil {
			v.Protocols = []string{}
		}
		slices.SortFunc(v.Platforms, func(a, b registryPlatform) int {
			return strings.Compare(Platform(a.OS, a.Arch), Platform(b.OS, b.Arch))
		})
		versions = append(versions, *v)
	}
	return versions, nil
}

// compareVersions orders semantic versions, lowest first.
func compareVersions(a, b string) int { return semver.Compare("v"+a, "v"+b) }

// handleRegistryDownload serves GET /v1/providers/<namespace>/<type>/<version>/download/<os>/<arch>:
// where the package is, its SHA-256, the SHA256SUMS of the version and its
// signature, and the public key that signed it. The package is the
// network mirror's path of the archive. A package of a pulled-through
// provider that the store does not hold yet is pulled first.
func (s *Server) handleRegistryDownload(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	p, ok := s.registryProvider(r)
	version, goos, arch := r.PathValue("version"), r.PathValue("os"), r.PathValue("arch")
	if !ok || protocol.CheckVersion(version) != nil || checkPlatform(goos, arch) != nil {
		http.NotFound(w, r)
		return
	}
	name := ArchiveName(p.Type, version, goos, arch)
	if err := s.ensureArchive(ctx, p, name); err != nil {
		s.Fail(w, r, err)
		return
	}
	held, err := s.store.versionArchives(ctx, p, version)
	if err != nil {
		s.Fail(w, r, err)
		return
	}
	a, ok := held[Platform(goos, arch)]
	if !ok {
		s.Fail(w, r, fmt.Errorf("archive %s/%s: %w", p, name, protocol.ErrNotFound))
		return
	}
	versionPath := Path + p.Namespace + "/" + p.Type + "/" + version + "/"
	sums := SHA256SumsName(p.Type, version)
	protocol.WriteJSON(w, registryDownload{
		Protocols:           s.pull.protocols(p, version),
		OS:                  goos,
		Arch:                arch,
		Filename:            name,
		DownloadURL:         "/" + providerDir(p) + "/" + name,
		SHASumsURL:          versionPath + sums,
		SHASumsSignatureURL: versionPath + sums + ".sig",
		SHASum:              strings.TrimPrefix(a.hashes.ZH, "zh:"),
		SigningKeys: registrySigningKeys{GPGPublicKeys: []registryGPGKey{{
			KeyID:      s.signingKey.KeyID(),
			ASCIIArmor: s.signingKey.PublicKey(),
		}}},
	})
}

// handleRegistrySums serves the SHA256SUMS of a provider version, every
// archive the store holds of it, and its detached binary signature:
// GET /v1/providers/<namespace>/<type>/<version>/terraform-provider-<type>_<version>_SHA256SUMS[.sig].
func (s *Server) handleRegistrySums(w http.ResponseWriter, r *http.Request) {
	p, ok := s.registryProvider(r)
	version, file := r.PathValue("version"), r.PathValue("file")
	if !ok || protocol.CheckVersion(version) != nil {
		http.NotFound(w, r)
		return
	}
	name := SHA256SumsName(p.Type, version)
	if file != name && file != name+".sig" {
		http.NotFound(w, r)
		return
	}
	doc, err := s.sha256Sums(r.Context(), p, version)
	if err != nil {
		s.Fail(w, r, err)
		return
	}
	if file == name {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write(doc)
		return
	}
	sig, err := s.signingKey.Sign(doc)
	if err != nil {
		s.Fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/pgp-signature")
	w.Write(sig)
}

// sha256Sums is the SHA256SUMS document of the archives the store holds
// of a provider version.
func (s *Server) sha256Sums(ctx context.Context, p Provider, version string) ([]byte, error) {
	held, err := s.store.versionArchives(ctx, p, version)
	if err != nil {
		return nil, fmt.Errorf("list archives of %s %s: %w", p, version, err)
	}
	if len(held) == 0 {
		return nil, fmt.Errorf("list archives of %s %s: %w", p, version, protocol.ErrNotFound)
	}
	sums := map[string]string{}
	for _, a := range held {
		sums[a.name] = strings.TrimPrefix(a.hashes.ZH, "zh:")
	}
	return formatSHA256Sums(sums), nil
}

// ensureArchive makes sure the store holds the archive name of a checked
// provider: it is there, or it is pulled from the upstream now. The error
// wraps [protocol.ErrNotFound] when neither has it.
func (s *Server) ensureArchive(ctx context.Context, p Provider, name string) error {
	a, ok := parseArchiveName(p.Type, name)
	if !ok {
		return fmt.Errorf("%w archive name %q", protocol.ErrInvalid, name)
	}
	_, err := s.store.st.Stat(ctx, providerDir(p)+"/"+name)
	switch {
	case err == nil:
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("archive %s/%s: %w", p, name, err)
	case !s.pull.covers(p):
		return fmt.Errorf("archive %s/%s: %w", p, name, protocol.ErrNotFound)
	}
	return s.pull.pull(ctx, s.store, p, a)
}
