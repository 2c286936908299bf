package modules

import "github.com/strata-iac/strata/registry-mirror/storage"

// Store keeps module archives in a storage, at
//
//	modules/<namespace>/<name>/<system>/<version>.tar.gz
//
// It is safe for concurrent use, also by several processes: archives are
// written atomically and never replaced.
type Store struct {
	st storage.Storage
}

// NewStore returns the module store in st.
func NewStore(st storage.Storage) *Store {
	return &Store{st: st}
}
