package history

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"
)

// CompactSuffix names the new file a writer's Open compacts the history
// into, next to it, before it takes the file's place.
const CompactSuffix = ".compact"

// A writer's Open compacts the file when its free pages (which bbolt
// reuses, and never gives back to the disk) are at least compactMinFree
// bytes and more than compactRatio of the file: the runs that retention
// deleted, or a history trimmed after a long time without retention.
// Variables, so that tests compact small files.
var (
	compactMinFree int64 = 8 << 20
	compactRatio         = 0.5
)

// compactTxMax bounds what one transaction of the copy holds.
const compactTxMax = 64 << 20

// compactStep, when set (by tests), is called at each step of a
// compaction: "copied" once the new file holds the whole history, and
// "renamed" once it took the file's place. A test's process kills itself
// there, as a crash would.
var compactStep func(step string)

// compactIfFree compacts the history when its free pages are worth it
// (see compactMinFree); see compact.
func (s *Store) compactIfFree() error {
	fi, err := os.Stat(s.path)
	if err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	st := s.db.Stats()
	free := int64(st.FreePageN+st.PendingPageN) * int64(s.db.Info().PageSize)
	if free < compactMinFree || float64(free) <= compactRatio*float64(fi.Size()) {
		return nil
	}
	return s.compact()
}

// compact copies the history into a new file (path + CompactSuffix), with
// no free page, and puts it in the file's place, atomically: a crash at
// any point leaves either the file as it was, whole (and a partial copy
// that the next writer removes), or the whole copy in its place. The new
// file is locked before it takes the file's place, so no other process
// can open it in between; one that opened the old file and waited for
// its lock sees, once it has it, that the file is no longer at path, and
// opens again (see openWriter).
func (s *Store) compact() (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = corrupt(s.path, p)
		}
	}()
	tmp := s.path + CompactSuffix
	if err := os.Remove(tmp); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("compact: %w", err)
	}
	dst, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: readOnlyTimeout})
	if err != nil {
		return fmt.Errorf("compact into %s: %w", tmp, err)
	}
	fail := func(err error) error {
		dst.Close()
		os.Remove(tmp)
		return fmt.Errorf("compact into %s: %w", tmp, err)
	}
	if err := bolt.Compact(dst, s.db, compactTxMax); err != nil {
		return fail(err)
	}
	// The copy numbers its transactions anew: it keeps the index, the
	// heads and the history's id, and says so.
	if err := dst.Update(stamp); err != nil {
		return fail(err)
	}
	if err := dst.Sync(); err != nil {
		return fail(err)
	}
	step("copied")
	if err := os.Rename(tmp, s.path); err != nil {
		return fail(err)
	}
	if err := syncDir(filepath.Dir(s.path)); err != nil {
		// The rename is done; the directory's entry may not be on disk
		// yet, and either file holds the whole history.
		s.db.Close()
		s.db = dst
		return fmt.Errorf("compact: %w", err)
	}
	step("renamed")
	// The old file, no longer at path, goes once closed.
	old := s.db
	s.db = dst
	if err := old.Close(); err != nil {
		return fmt.Errorf("compact: close the file it replaced: %w", err)
	}
	return nil
}

func step(name string) {
	if compactStep != nil {
		compactStep(name)
	}
}

// syncDir writes a directory's entries to disk: a rename in it is then
// durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// removeStaleCompact removes what a compaction that stopped before its
// copy took the file's place left: the writer holds the file, so no
// compaction is going on.
func removeStaleCompact(path string) error {
	if err := os.Remove(path + CompactSuffix); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove the partial copy a stopped compaction left: %w", err)
	}
	return nil
}
