package modules

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/Masterminds/semver/v3"
	"github.com/strata-iac/strata/registry-mirror/protocol"
	"github.com/strata-iac/strata/registry-mirror/storage"
)

// Versions lists the versions of a module that have an archive,
// lowest first. The error wraps [protocol.ErrNotFound] when there are none, and
// [protocol.ErrInvalid] for a malformed address.
func (s *Store) Versions(ctx context.Context, namespace, name, system string) ([]string, error) {
	fail := func(err error) ([]string, error) {
		return nil, fmt.Errorf("list versions of module %s/%s/%s: %w", namespace, name, system, err)
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	m, err := newModule(namespace, name, system)
	if err != nil {
		return fail(err)
	}
	files, err := s.st.List(ctx, dirKey(m))
	if err != nil {
		return fail(err)
	}
	var versions []*semver.Version
	for _, f := range files {
		if v, ok := parseArchiveName(f.Name); ok {
			versions = append(versions, semver.MustParse(v))
		}
	}
	if len(versions) == 0 {
		return fail(protocol.ErrNotFound)
	}
	slices.SortFunc(versions, func(a, b *semver.Version) int { return a.Compare(b) })
	out := make([]string, len(versions))
	for i, v := range versions {
		out[i] = v.Original()
	}
	return out, nil
}

// open opens the archive of a module version for reading. The error
// wraps [protocol.ErrNotFound] when there is none.
func (s *Store) open(ctx context.Context, namespace, name, system, version string) (storage.Object, error) {
	m, err := checkRef(ctx, namespace, name, system, version)
	if err != nil {
		return nil, err
	}
	o, err := s.st.Open(ctx, archiveKey(m, version))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("module %s %s: %w", m, version, protocol.ErrNotFound)
	}
	return o, err
}

// stat tells whether a module version has an archive: the error
// wraps [protocol.ErrNotFound] when it has none.
func (s *Store) stat(ctx context.Context, namespace, name, system, version string) error {
	m, err := checkRef(ctx, namespace, name, system, version)
	if err != nil {
		return err
	}
	_, err = s.st.Stat(ctx, archiveKey(m, version))
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("module %s %s: %w", m, version, protocol.ErrNotFound)
	}
	return err
}

// checkRef checks the address and version of a module version.
func checkRef(ctx context.Context, namespace, name, system, version string) (Module, error) {
	if err := ctx.Err(); err != nil {
		return Module{}, err
	}
	m, err := newModule(namespace, name, system)
	if err != nil {
		return Module{}, err
	}
	if err := checkVersion(version); err != nil {
		return Module{}, err
	}
	return m, nil
}
