package mirror

import (
	"context"
	"fmt"
	"path"

	"github.com/strata-iac/strata/registry-mirror/modules"
	"github.com/strata-iac/strata/registry-mirror/providers"
	"github.com/strata-iac/strata/registry-mirror/storage"
)

// Store keeps provider packages and module archives, in a directory
// ([NewStore]) or an S3 bucket ([NewS3Store]), in one layout:
//
//	<hostname>/<namespace>/<type>/terraform-provider-<type>_<version>_<os>_<arch>.zip          provider package
//	<hostname>/<namespace>/<type>/terraform-provider-<type>_<version>_<os>_<arch>.zip.hashes   its h1: and zh: hashes
//	modules/<namespace>/<name>/<system>/<version>.tar.gz                                      module archive
//
// It is safe for concurrent use, also by several processes: archives are
// written atomically and never replaced.
type Store struct {
	// Providers keeps the provider packages.
	Providers *providers.Store
	// Modules keeps the module archives.
	Modules *modules.Store

	st  storage.Storage
	dir string
}

// NewStore returns the store in dir, which is created by the first upload.
func NewStore(dir string) *Store {
	return newStore(storage.NewDir(dir), dir)
}

// NewS3Store returns a store that keeps its files in an S3 bucket, in the
// same layout as a directory store (see [storage.NewS3]). NewS3Store makes
// no request; [Store.Check] does.
func NewS3Store(ctx context.Context, cfg storage.S3Config) (*Store, error) {
	st, err := storage.NewS3(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return newStore(st, ""), nil
}

func newStore(st storage.Storage, dir string) *Store {
	return &Store{Providers: providers.NewStore(st), Modules: modules.NewStore(st), st: st, dir: dir}
}

// Dir is the store's directory; it is empty for a store on S3.
func (s *Store) Dir() string { return s.dir }

// Location names where the store keeps the file at the slash-separated
// path elem, relative to its top: a path in its directory, or an s3://
// URL. Without elem it names the top itself.
func (s *Store) Location(elem ...string) string {
	if len(elem) == 0 {
		return s.st.Location("")
	}
	return s.st.Location(path.Join(elem...))
}

// Check makes sure the store can be read: that its directory is one, or
// does not exist yet; that its bucket answers a listing with the
// credentials at hand.
func (s *Store) Check(ctx context.Context) error {
	if err := s.st.Check(ctx); err != nil {
		return fmt.Errorf("check mirror store %s: %w", s.st.Location(""), err)
	}
	return nil
}
