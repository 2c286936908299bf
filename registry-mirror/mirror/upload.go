package mirror

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// AddProvider stores zip as the package of a provider version for one
// platform, at <dir>/<hostname>/<namespace>/<type>/terraform-provider-<type>_<version>_<os>_<arch>.zip.
//
// The archive must be a zip whose top level holds the provider's
// executable, terraform-provider-<type> optionally followed by "_…" or
// "…" (e.g. terraform-provider-strata_v0.1.0), executable for any os but
// windows; it may hold no directory entries and no paths leaving the
// package. The write is atomic: the bytes go to a temporary file, are
// checked and synced, and are linked into place only if no archive is
// there yet. Adding the same bytes again succeeds and changes nothing;
// different bytes for an archive that exists fail with [ErrExists], since
// lock files pin archives by hash. Malformed input wraps [ErrInvalid].
func (s *Store) AddProvider(ctx context.Context, hostname, namespace, typ, version, os, arch string, zip io.Reader) error {
	_, err := s.addProvider(ctx, hostname, namespace, typ, version, os, arch, zip)
	return err
}

// addProvider is AddProvider, returning the stored archive's index entry.
func (s *Store) addProvider(ctx context.Context, hostname, namespace, typ, version, goos, arch string, r io.Reader) (Archive, error) {
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
	if err := checkVersion(version); err != nil {
		return fail(err)
	}
	if err := checkPlatform(goos, arch); err != nil {
		return fail(err)
	}
	dir := s.providerDir(p)
	name := ArchiveName(p.Type, version, goos, arch)
	final := filepath.Join(dir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail(err)
	}
	// Temporary files start with a dot, so no index ever lists them.
	tmp, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return fail(err)
	}
	defer func() {
		tmp.Close()
		os.Remove(tmp.Name())
	}()
	sum := sha256.New()
	if _, err := io.Copy(io.MultiWriter(tmp, sum), ctxReader{ctx, r}); err != nil {
		return fail(fmt.Errorf("read archive: %w", err))
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := checkArchive(tmp.Name(), p.Type, goos); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	// A hard link creates the name only if it is free, so two uploads of
	// the same archive at once cannot replace each other.
	err = os.Link(tmp.Name(), final)
	if errors.Is(err, fs.ErrExist) {
		same, err := sameContent(ctx, final, sum.Sum(nil))
		if err != nil {
			return fail(err)
		}
		if !same {
			return fail(fmt.Errorf("archive %s: %w", name, ErrExists))
		}
	} else if err != nil {
		return fail(err)
	} else {
		syncDir(dir)
	}
	info, err := os.Stat(final)
	if err != nil {
		return fail(err)
	}
	h, err := s.archiveHashes(ctx, final, info)
	if err != nil {
		return fail(err)
	}
	return Archive{URL: name, Hashes: h.List()}, nil
}

// checkArchive checks that the file at path is a provider package for typ
// that tofu can install and run on goos.
func checkArchive(path, typ, goos string) error {
	z, err := zip.OpenReader(path)
	if err != nil {
		return fmt.Errorf("%w archive: %w", ErrInvalid, err)
	}
	defer z.Close()
	want := "terraform-provider-" + typ
	found := false
	for _, f := range z.File {
		name := f.Name
		switch {
		case strings.HasSuffix(name, "/") || f.FileInfo().IsDir():
			// tofu hashes an unpacked package's files only; a directory
			// entry would make its h1 differ from the archive's.
			return fmt.Errorf("%w archive: directory entry %q: provider packages hold files only", ErrInvalid, name)
		case name == "" || strings.ContainsAny(name, "\\\x00\n") || !fs.ValidPath(name):
			return fmt.Errorf("%w archive: file name %q", ErrInvalid, name)
		case !f.Mode().IsRegular():
			return fmt.Errorf("%w archive: %q is not a regular file (%v)", ErrInvalid, name, f.Mode())
		}
		rest, ok := strings.CutPrefix(name, want)
		if !ok || (rest != "" && rest[0] != '_' && rest[0] != '.') {
			continue
		}
		if goos != "windows" && f.Mode().Perm()&0o111 == 0 {
			return fmt.Errorf("%w archive: provider executable %q is not executable (mode %v)", ErrInvalid, name, f.Mode())
		}
		found = true
	}
	if !found {
		return fmt.Errorf("%w archive: no provider executable %s or %s_* at its top level", ErrInvalid, want, want)
	}
	return nil
}

// sameContent reports whether the file at path has the given SHA-256.
func sameContent(ctx context.Context, path string, want []byte) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	sum := sha256.New()
	if _, err := io.Copy(sum, ctxReader{ctx, f}); err != nil {
		return false, err
	}
	return bytes.Equal(sum.Sum(nil), want), nil
}

// syncDir makes a new directory entry durable. It is best effort: some
// systems cannot sync a directory, and the file is in place all the same.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// handlePut serves PUT /<hostname>/<namespace>/<type>/<archive>.zip: an
// upload with the server's bearer token. It answers 201 with the archive's
// index entry, 401 without the right token, 400 for a malformed archive,
// 409 when a different archive is already there, and 413 past the size
// limit.
func (s *Server) handlePut(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="strata provider mirror"`)
		http.Error(w, "an upload needs the mirror's bearer token", http.StatusUnauthorized)
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
	body := http.MaxBytesReader(w, r.Body, s.maxUpload)
	entry, err := s.store.addProvider(r.Context(), p.Hostname, p.Namespace, p.Type, a.version, a.os, a.arch, body)
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		http.Error(w, fmt.Sprintf("archive larger than %d bytes", tooLarge.Limit), http.StatusRequestEntityTooLarge)
		return
	case errors.Is(err, ErrInvalid):
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	case errors.Is(err, ErrExists):
		http.Error(w, err.Error(), http.StatusConflict)
		return
	case err != nil:
		s.log.ErrorContext(r.Context(), "upload failed", "path", r.URL.Path, "err", err)
		http.Error(w, "upload failed", http.StatusInternalServerError)
		return
	}
	s.log.InfoContext(r.Context(), "provider uploaded", "provider", p.String(), "version", a.version,
		"platform", Platform(a.os, a.arch), "hashes", entry.Hashes)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(entry)
}

// authorized reports whether r carries the upload token.
func (s *Server) authorized(r *http.Request) bool {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(token), []byte(s.uploadToken)) == 1
}
