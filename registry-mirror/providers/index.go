package providers

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/strata-iac/strata/registry-mirror/protocol"
	"github.com/strata-iac/strata/registry-mirror/storage"
	"golang.org/x/mod/semver"
)

// Archive is one package in a version index: its URL, relative to the
// index, and its hashes.
type Archive struct {
	URL    string   `json:"url"`
	Hashes []string `json:"hashes"`
}

// Versions lists the versions of a provider that have at least one
// archive, lowest first. The error wraps [protocol.ErrNotFound] when there are
// none, and [protocol.ErrInvalid] for a malformed address.
func (s *Store) Versions(ctx context.Context, hostname, namespace, typ string) ([]string, error) {
	p, archives, err := s.scan(ctx, hostname, namespace, typ)
	if err != nil {
		return nil, fmt.Errorf("list versions of %s/%s/%s: %w", hostname, namespace, typ, err)
	}
	if len(archives) == 0 {
		return nil, fmt.Errorf("list versions of %s: %w", p, protocol.ErrNotFound)
	}
	var versions []string
	for _, a := range archives {
		if !slices.Contains(versions, a.version) {
			versions = append(versions, a.version)
		}
	}
	slices.SortFunc(versions, func(a, b string) int { return semver.Compare("v"+a, "v"+b) })
	return versions, nil
}

// Archives returns the archives of one version of a provider by platform
// (e.g. "linux_amd64"), with their hashes. The error wraps [protocol.ErrNotFound]
// when there are none, and [protocol.ErrInvalid] for a malformed address or
// version.
func (s *Store) Archives(ctx context.Context, hostname, namespace, typ, version string) (map[string]Archive, error) {
	fail := func(err error) (map[string]Archive, error) {
		return nil, fmt.Errorf("list archives of %s/%s/%s %s: %w", hostname, namespace, typ, version, err)
	}
	if err := protocol.CheckVersion(version); err != nil {
		return fail(err)
	}
	p, err := newProvider(hostname, namespace, typ)
	if err != nil {
		return fail(err)
	}
	held, err := s.versionArchives(ctx, p, version)
	if err != nil {
		return fail(err)
	}
	if len(held) == 0 {
		return fail(protocol.ErrNotFound)
	}
	out := map[string]Archive{}
	for platform, a := range held {
		out[platform] = a.entry()
	}
	return out, nil
}

// heldArchive is an archive the store holds, with its hashes.
type heldArchive struct {
	name     string
	os, arch string
	hashes   Hashes
}

// entry is the archive's entry in a version index.
func (a heldArchive) entry() Archive { return Archive{URL: a.name, Hashes: a.hashes.List()} }

// versionArchives returns the archives the store holds of one version of
// a checked provider, by platform, with their hashes; none is no error.
func (s *Store) versionArchives(ctx context.Context, p Provider, version string) (map[string]heldArchive, error) {
	_, archives, err := s.scan(ctx, p.Hostname, p.Namespace, p.Type)
	if err != nil {
		return nil, err
	}
	out := map[string]heldArchive{}
	for name, a := range archives {
		if a.version != version {
			continue
		}
		h, err := s.archiveHashes(ctx, providerDir(p)+"/"+name, a.file)
		if err != nil {
			return nil, err
		}
		out[Platform(a.os, a.arch)] = heldArchive{name: name, os: a.os, arch: a.arch, hashes: h}
	}
	return out, nil
}

// scan checks a provider address and lists its directory: the archives
// by file name. Anything else in the directory (indexes written by tofu
// providers mirror, hash files, temporary files of uploads in progress)
// is ignored.
func (s *Store) scan(ctx context.Context, hostname, namespace, typ string) (Provider, map[string]archive, error) {
	if err := ctx.Err(); err != nil {
		return Provider{}, nil, err
	}
	p, err := newProvider(hostname, namespace, typ)
	if err != nil {
		return Provider{}, nil, err
	}
	files, err := s.st.List(ctx, providerDir(p))
	if err != nil {
		return Provider{}, nil, err
	}
	archives := map[string]archive{}
	for _, f := range files {
		if a, ok := parseArchiveName(p.Type, f.Name); ok {
			a.file = f
			archives[f.Name] = a
		}
	}
	return p, archives, nil
}

// openArchive opens one archive of a provider for reading. The error wraps
// [protocol.ErrNotFound] when there is no such archive.
func (s *Store) openArchive(ctx context.Context, hostname, namespace, typ, name string) (storage.Object, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := newProvider(hostname, namespace, typ)
	if err != nil {
		return nil, err
	}
	if _, ok := parseArchiveName(p.Type, name); !ok {
		return nil, fmt.Errorf("%w archive name %q", protocol.ErrInvalid, name)
	}
	o, err := s.st.Open(ctx, providerDir(p)+"/"+name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("archive %s/%s: %w", p, name, protocol.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	return o, nil
}
