package mirror

import (
	"errors"
	"path/filepath"
	"sync"
	"time"
)

var (
	// ErrNotFound is wrapped when the mirror has no such provider,
	// version or archive.
	ErrNotFound = errors.New("not found")
	// ErrExists is wrapped when an upload would replace an archive with
	// different content. Lock files pin archives by hash, so a published
	// archive never changes; uploading the same bytes again is fine.
	ErrExists = errors.New("already exists with different content")
)

// Store is a directory of provider packages in the packed mirror layout,
// <dir>/<hostname>/<namespace>/<type>/<archive>.zip. It is safe for
// concurrent use, also by several processes: archives are written
// atomically and never replaced.
type Store struct {
	dir string

	mu     sync.Mutex
	hashes map[string]cachedHashes // by archive path
}

// cachedHashes are an archive's hashes, valid while the file keeps its
// size and modification time.
type cachedHashes struct {
	size    int64
	modTime time.Time
	hashes  Hashes
}

// NewStore returns the store in dir, which is created by the first upload.
func NewStore(dir string) *Store {
	return &Store{dir: dir, hashes: map[string]cachedHashes{}}
}

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

// providerDir is the directory of a checked provider's archives.
func (s *Store) providerDir(p Provider) string {
	return filepath.Join(s.dir, p.Hostname, p.Namespace, p.Type)
}
