package providers

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"strings"

	"github.com/strata-iac/strata/registry-mirror/protocol"
)

// Add stores zip as the package of a provider version for one
// platform, at <hostname>/<namespace>/<type>/terraform-provider-<type>_<version>_<os>_<arch>.zip
// in the store, and its h1: and zh: hashes in the .hashes file beside it.
//
// The archive must be a zip whose top level holds the provider's
// executable, terraform-provider-<type> optionally followed by "_…" or
// "…" (e.g. terraform-provider-strata_v0.1.0), executable for any os but
// windows; it may hold no directory entries and no paths leaving the
// package. The write is atomic: the bytes go to a temporary file, are
// checked, hashed and synced, and are put in place only if no archive is
// there yet (a hard link in a directory, a conditional put on S3). Adding
// the same bytes again succeeds and changes nothing; different bytes for
// an archive that exists fail with [protocol.ErrExists], since lock files pin
// archives by hash. Malformed input wraps [protocol.ErrInvalid].
func (s *Store) Add(ctx context.Context, hostname, namespace, typ, version, os, arch string, zip io.Reader) error {
	_, err := s.addProvider(ctx, hostname, namespace, typ, version, os, arch, zip, nil)
	return err
}

// addProviderChecked is addProvider for a checked provider, with verify
// run on the archive's file before anything else: an error of verify
// stores nothing.
func (s *Store) addProviderChecked(ctx context.Context, p Provider, version, goos, arch string, r io.Reader, verify func(f *os.File) error) (Archive, error) {
	return s.addProvider(ctx, p.Hostname, p.Namespace, p.Type, version, goos, arch, r, verify)
}

// addProvider is Add, returning the stored archive's index entry.
// verify, when not nil, checks the archive's file first; it must not move
// the file's offset.
func (s *Store) addProvider(ctx context.Context, hostname, namespace, typ, version, goos, arch string, r io.Reader, verify func(f *os.File) error) (Archive, error) {
	fail := func(err error) (Archive, error) {
		return Archive{}, fmt.Errorf("add provider %s/%s/%s %s %s: %w", hostname, namespace, typ, version, Platform(goos, arch), err)
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	p, err := newProvider(hostname, namespace, typ)
	if err != nil {
		return fail(err)
	}
	goos, arch = strings.ToLower(goos), strings.ToLower(arch)
	if err := protocol.CheckVersion(version); err != nil {
		return fail(err)
	}
	if err := checkPlatform(goos, arch); err != nil {
		return fail(err)
	}
	name := ArchiveName(p.Type, version, goos, arch)
	key := providerDir(p) + "/" + name
	var h Hashes
	err = s.st.Create(ctx, key, r, func(f *os.File) error {
		if verify != nil {
			if err := verify(f); err != nil {
				return err
			}
		}
		if err := checkArchive(f, p.Type, goos); err != nil {
			return err
		}
		h, err = hashFile(ctx, f)
		return err
	})
	if errors.Is(err, fs.ErrExist) {
		// The same bytes again are fine: compare with the archive's zh,
		// the SHA-256 of its bytes.
		info, err := s.st.Stat(ctx, key)
		if err != nil {
			return fail(err)
		}
		have, err := s.archiveHashes(ctx, key, info)
		if err != nil {
			return fail(err)
		}
		if have.ZH != h.ZH {
			return fail(fmt.Errorf("archive %s: %w", name, protocol.ErrExists))
		}
		return Archive{URL: name, Hashes: have.List()}, nil
	}
	if err != nil {
		return fail(err)
	}
	info, err := s.st.Stat(ctx, key)
	if err != nil {
		return fail(err)
	}
	if err := s.writeHashes(ctx, key, info, h); err != nil {
		return fail(err)
	}
	s.cacheHashes(key, info, h)
	return Archive{URL: name, Hashes: h.List()}, nil
}

// checkArchive checks that f is a provider package for typ that tofu can
// install and run on goos.
func checkArchive(f *os.File, typ, goos string) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	z, err := zip.NewReader(f, info.Size())
	if err != nil {
		return fmt.Errorf("%w archive: %w", protocol.ErrInvalid, err)
	}
	want := "terraform-provider-" + typ
	found := false
	for _, f := range z.File {
		name := f.Name
		switch {
		case strings.HasSuffix(name, "/") || f.FileInfo().IsDir():
			// tofu hashes an unpacked package's files only; a directory
			// entry would make its h1 differ from the archive's.
			return fmt.Errorf("%w archive: directory entry %q: provider packages hold files only", protocol.ErrInvalid, name)
		case name == "" || strings.ContainsAny(name, "\\\x00\n") || !fs.ValidPath(name):
			return fmt.Errorf("%w archive: file name %q", protocol.ErrInvalid, name)
		case !f.Mode().IsRegular():
			return fmt.Errorf("%w archive: %q is not a regular file (%v)", protocol.ErrInvalid, name, f.Mode())
		}
		rest, ok := strings.CutPrefix(name, want)
		if !ok || (rest != "" && rest[0] != '_' && rest[0] != '.') {
			continue
		}
		if goos != "windows" && f.Mode().Perm()&0o111 == 0 {
			return fmt.Errorf("%w archive: provider executable %q is not executable (mode %v)", protocol.ErrInvalid, name, f.Mode())
		}
		found = true
	}
	if !found {
		return fmt.Errorf("%w archive: no provider executable %s or %s_* at its top level", protocol.ErrInvalid, want, want)
	}
	return nil
}

// handlePut serves PUT /<hostname>/<namespace>/<type>/<archive>.zip: an
// upload with the server's bearer token. It answers 201 with the archive's
// index entry, 401 without the right token, 400 for a malformed archive,
// 409 when a different archive is already there, and 413 past the size
// limit.
func (s *Server) handlePut(w http.ResponseWriter, r *http.Request) {
	if !s.Authorized(r) {
		protocol.Unauthorized(w)
		return
	}
	hostname, namespace, typ, name := r.PathValue("hostname"), r.PathValue("namespace"), r.PathValue("type"), r.PathValue("file")
	p, err := newProvider(hostname, namespace, typ)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	a, ok := parseArchiveName(p.Type, name)
	if !ok {
		http.NotFound(w, r)
		return
	}
	body := http.MaxBytesReader(w, r.Body, s.MaxUpload)
	entry, err := s.store.addProvider(r.Context(), p.Hostname, p.Namespace, p.Type, a.version, a.os, a.arch, body, nil)
	if s.FailUpload(w, r, err) {
		return
	}
	s.Log.InfoContext(r.Context(), "provider uploaded", "provider", p.String(), "version", a.version,
		"platform", Platform(a.os, a.arch), "hashes", entry.Hashes)
	protocol.WriteCreated(w, entry)
}
