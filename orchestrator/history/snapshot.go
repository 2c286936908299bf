package history

import (
	"bytes"
	"fmt"
	"io"

	bolt "go.etcd.io/bbolt"

	"github.com/strata-iac/strata/internal/atomicfile"
)

// writeSnapshot copies the history, consistently, to the snapshot that
// readers use while this process holds the file, unless the snapshot
// holds this history already: the reconcile that made it wrote nothing
// after (one that had nothing due). It streams the copy to the file: the
// history grows with every run, and a copy in memory would make every
// reconcile's memory grow with it.
func (s *Store) writeSnapshot() error {
	snap := s.path + SnapshotSuffix
	if err := s.view(func(tx *bolt.Tx) error {
		if snapshotHolds(snap, tx) {
			return nil
		}
		return atomicfile.Stream(snap, 0o600, func(w io.Writer) error {
			_, err := tx.WriteTo(w)
			return err
		})
	}); err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	return nil
}

// snapshotHolds reports whether the snapshot at path holds the history
// that tx reads: it has the file's id (see indexBucket) and the ID of its
// last write transaction. It reads the two metadata pages and the index's
// id, nothing else; a snapshot missing, damaged or of another file holds
// nothing.
func snapshotHolds(path string, tx *bolt.Tx) (holds bool) {
	id := indexValue(tx, indexID)
	if id == nil {
		return false
	}
	db, err := openDB(path, &bolt.Options{ReadOnly: true, Timeout: readOnlyTimeout})
	if err != nil {
		return false
	}
	defer db.Close()
	defer func() {
		if recover() != nil {
			holds = false
		}
	}()
	_ = db.View(func(snap *bolt.Tx) error {
		holds = snap.ID() == tx.ID() && bytes.Equal(indexValue(snap, indexID), id)
		return nil
	})
	return holds
}

// indexValue is the value of the index's key k, nil when there is none.
func indexValue(tx *bolt.Tx, k []byte) []byte {
	ib := tx.Bucket(indexBucket)
	if ib == nil {
		return nil
	}
	return ib.Get(k)
}
