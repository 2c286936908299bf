package providers

import (
	"sync"

	"github.com/strata-iac/strata/registry-mirror/storage"
)

// Store keeps provider packages in a storage, in the layout
// `tofu providers mirror` writes for a packed mirror:
//
//	<hostname>/<namespace>/<type>/terraform-provider-<type>_<version>_<os>_<arch>.zip          provider package
//	<hostname>/<namespace>/<type>/terraform-provider-<type>_<version>_<os>_<arch>.zip.hashes   its h1: and zh: hashes
//
// It is safe for concurrent use, also by several processes: archives are
// written atomically and never replaced.
type Store struct {
	st storage.Storage

	mu     sync.Mutex
	hashes map[string]cachedHashes // by archive key
}

// NewStore returns the provider store in st.
func NewStore(st storage.Storage) *Store {
	return &Store{st: st, hashes: map[string]cachedHashes{}}
}

// providerDir is the key of the directory of a checked provider's
// archives.
func providerDir(p Provider) string {
	return p.Hostname + "/" + p.Namespace + "/" + p.Type
}
