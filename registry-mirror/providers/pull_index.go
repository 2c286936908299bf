package providers

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/strata-iac/strata/registry-mirror/protocol"
	"github.com/strata-iac/strata/registry-mirror/storage"
)

// mirrorVersions lists the versions of a provider for its index.json:
// those the store holds and, when the provider is pulled through, those
// the upstream lists (kept for the upstream ttl). When the upstream fails,
// the versions held are listed alone; when there are none, the upstream's
// error is returned.
func (s *Server) mirrorVersions(ctx context.Context, hostname, namespace, typ string) ([]string, error) {
	held, err := s.store.Versions(ctx, hostname, namespace, typ)
	if err != nil && !errors.Is(err, protocol.ErrNotFound) {
		return nil, err
	}
	p, perr := newProvider(hostname, namespace, typ)
	if perr != nil || !s.pull.covers(p) {
		return held, err
	}
	up, uerr := s.pull.versions(ctx, p)
	switch {
	case uerr == nil:
	case errors.Is(uerr, protocol.ErrNotFound) && len(held) > 0:
		return held, nil
	case len(held) > 0:
		s.Log.WarnContext(ctx, "upstream unavailable, listing the versions held", "provider", p.String(), "err", uerr)
		return held, nil
	default:
		return nil, uerr
	}
	versions := held
	for _, v := range up {
		if !slices.Contains(versions, v.Version) {
			versions = append(versions, v.Version)
		}
	}
	if len(versions) == 0 {
		return nil, fmt.Errorf("list versions of %s: %w", p, protocol.ErrNotFound)
	}
	slices.SortFunc(versions, compareVersions)
	return versions, nil
}

// mirrorArchives lists the archives of a provider version for its
// <version>.json: those the store holds, with their h1: and zh: hashes,
// and, when the provider is pulled through, the upstream's other
// platforms, each with the zh: hash of the upstream's signed SHA256SUMS.
// When the upstream fails, the archives held are listed alone.
func (s *Server) mirrorArchives(ctx context.Context, hostname, namespace, typ, version string) (map[string]Archive, error) {
	held, err := s.store.Archives(ctx, hostname, namespace, typ, version)
	if err != nil && !errors.Is(err, protocol.ErrNotFound) {
		return nil, err
	}
	p, perr := newProvider(hostname, namespace, typ)
	if perr != nil || protocol.CheckVersion(version) != nil || !s.pull.covers(p) {
		return held, err
	}
	up, uerr := s.pull.upstreamArchives(ctx, p, version, held)
	switch {
	case uerr == nil:
	case errors.Is(uerr, protocol.ErrNotFound) && len(held) > 0:
		return held, nil
	case len(held) > 0:
		s.Log.WarnContext(ctx, "upstream unavailable, listing the archives held", "provider", p.String(), "version", version, "err", uerr)
		return held, nil
	default:
		return nil, uerr
	}
	if held == nil {
		held = map[string]Archive{}
	}
	maps.Copy(held, up)
	if len(held) == 0 {
		return nil, fmt.Errorf("list archives of %s %s: %w", p, version, protocol.ErrNotFound)
	}
	return held, nil
}

// openArchive opens a provider archive of the store, pulling it from the
// upstream first when the provider is pulled through and the store does
// not hold it yet.
func (s *Server) openArchive(ctx context.Context, hostname, namespace, typ, name string) (storage.Object, error) {
	f, err := s.store.openArchive(ctx, hostname, namespace, typ, name)
	if err == nil || !errors.Is(err, protocol.ErrNotFound) {
		return f, err
	}
	p, perr := newProvider(hostname, namespace, typ)
	if perr != nil || !s.pull.covers(p) {
		return nil, err
	}
	if err := s.ensureArchive(ctx, p, name); err != nil {
		return nil, err
	}
	return s.store.openArchive(ctx, hostname, namespace, typ, name)
}
