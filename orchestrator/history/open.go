package history

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// DefaultTimeout is how long Open waits for another process to release the
// file.
const DefaultTimeout = 5 * time.Second

// readOnlyTimeout is how long a read-only Open tries the file itself before
// it reads the snapshot instead.
const readOnlyTimeout = 100 * time.Millisecond

// SnapshotSuffix names the copy of the history that a writer makes when it
// opens the file, for readers while it holds the file.
const SnapshotSuffix = ".snapshot"

// ErrBusy means another process holds the history file.
var ErrBusy = errors.New("another strata process is using it")

// interruptedError is the Error of a run that a stopped process left
// "running".
const interruptedError = InterruptedError

// Store is the history of runs in one file.
type Store struct {
	db   *bolt.DB
	path string
	// readOnly stores were opened with ReadOnly; snapshot is set when
	// they read the snapshot because a writer held the file.
	readOnly bool
	snapshot bool
	// indexed is set when the file's index is current (see indexBucket):
	// always for a writer, which brings it up to date when it opens the
	// file; for a reader, when the last writer kept it.
	indexed bool
	// heads is set when the file's heads are current (see indexBucket),
	// as indexed is.
	heads bool
	// policies are how each environment's runs are kept (Retain).
	mu       sync.Mutex
	policies map[[2]string]policy
	// releaser lets go of the file's mapped pages now and then.
	releaser releaser
}

// Option changes how Open opens the file.
type Option func(*options)

type options struct {
	timeout  time.Duration
	readOnly bool
}

// WithTimeout sets how long Open waits for the file's lock.
func WithTimeout(d time.Duration) Option {
	return func(o *options) { o.timeout = d }
}

// ReadOnly opens the history for reading only. It never waits for a writer:
// while another process holds the file, it reads the snapshot the writer
// made next to it (path + SnapshotSuffix) when it opened the file, that is
// the history as it was before the writer's reconcile began.
func ReadOnly() Option {
	return func(o *options) { o.readOnly = true }
}

// Open opens the history file at path, creating it and its parent
// directories when missing. When another process holds the file, Open
// fails after the timeout (DefaultTimeout) with an error wrapping ErrBusy.
// Runs left "running" by a process that stopped are marked "interrupted":
// Open finds them in the file's index of running runs, and reads no other
// run, except once for a file written by a strata that kept no index
// (see indexBucket), whose every run it reads to build it.
// A damaged file is an error wrapping ErrCorrupt that says how to repair
// it. With ReadOnly, see ReadOnly.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	o := options{timeout: DefaultTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("open history %s: %w", path, err)
	}
	if o.readOnly {
		if _, err := os.Stat(path); err == nil {
			return openReadOnly(path)
		}
		// No history yet: create it, empty.
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open history %s: %w", path, err)
	}
	db, err := openWriter(path, o.timeout)
	if errors.Is(err, bolt.ErrTimeout) {
		return nil, fmt.Errorf("open history %s: %w (timeout after %s)", path, ErrBusy, o.timeout)
	}
	if err != nil {
		return nil, fmt.Errorf("open history %s: %w", path, err)
	}
	s := &Store{db: db, path: path, indexed: true, heads: true}
	if err := removeStaleCompact(path); err != nil {
		db.Close()
		return nil, fmt.Errorf("open history %s: %w", path, err)
	}
	if err := s.markInterrupted(); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("open history %s: mark interrupted runs: %w", path, err)
	}
	if err := s.compactIfFree(); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("open history %s: %w", path, err)
	}
	if err := s.writeSnapshot(); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("open history %s: %w", path, err)
	}
	return s, nil
}

// openWriter opens the file at path for writing, waiting up to timeout for
// its lock. A file that a compaction replaced while this process waited
// for the old one's lock is no longer at path: it opens the new one.
func openWriter(path string, timeout time.Duration) (*bolt.DB, error) {
	deadline := time.Now().Add(timeout)
	for {
		var file *os.File
		db, err := openDB(path, &bolt.Options{
			Timeout: max(time.Until(deadline), time.Millisecond),
			OpenFile: func(name string, flag int, perm os.FileMode) (*os.File, error) {
				f, err := os.OpenFile(name, flag, perm)
				file = f
				return f, err
			},
		})
		if err != nil {
			return nil, err
		}
		held, herr := file.Stat()
		named, nerr := os.Stat(path)
		if herr == nil && nerr == nil && os.SameFile(held, named) {
			return db, nil
		}
		db.Close()
		if herr != nil {
			return nil, herr
		}
		if nerr != nil && !errors.Is(nerr, os.ErrNotExist) {
			return nil, nerr
		}
		if time.Now().After(deadline) {
			return nil, bolt.ErrTimeout
		}
	}
}

// openReadOnly opens the file with a shared lock, or its snapshot when a
// writer holds the file.
func openReadOnly(path string) (*Store, error) {
	db, err := openDB(path, &bolt.Options{ReadOnly: true, Timeout: readOnlyTimeout})
	if err == nil {
		return readStore(&Store{db: db, path: path, readOnly: true})
	}
	if !errors.Is(err, bolt.ErrTimeout) {
		return nil, fmt.Errorf("open history %s: %w", path, err)
	}
	snap := path + SnapshotSuffix
	db, err = openDB(snap, &bolt.Options{ReadOnly: true, Timeout: readOnlyTimeout})
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("open history %s: %w, and it keeps no snapshot to read", path, ErrBusy)
	}
	if err != nil {
		return nil, fmt.Errorf("open history %s: read its snapshot %s: %w", path, snap, err)
	}
	return readStore(&Store{db: db, path: path, readOnly: true, snapshot: true})
}

// readStore notes whether a reader's file has a current index and
// current heads.
func readStore(s *Store) (*Store, error) {
	if err := s.view(func(tx *bolt.Tx) error {
		s.indexed = indexed(tx)
		s.heads = s.indexed && headsCurrent(tx)
		return nil
	}); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("open history %s: %w", s.path, err)
	}
	return s, nil
}

// openDB opens a bbolt file; a damaged file, which bbolt reports with a
// panic or an error, is an error wrapping ErrCorrupt.
func openDB(path string, o *bolt.Options) (db *bolt.DB, err error) {
	defer func() {
		if p := recover(); p != nil {
			db, err = nil, corrupt(path, p)
		}
	}()
	db, err = bolt.Open(path, 0o600, o)
	if errors.Is(err, bolt.ErrInvalid) || errors.Is(err, bolt.ErrVersionMismatch) || errors.Is(err, bolt.ErrChecksum) {
		return nil, corrupt(path, err)
	}
	return db, err
}

// FromSnapshot reports whether the store reads the writer's snapshot,
// because another process held the file when it was opened.
func (s *Store) FromSnapshot() bool { return s.snapshot }

// Path is the history file's path.
func (s *Store) Path() string { return s.path }

// Close closes the file, releasing it to other processes.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close history %s: %w", s.path, err)
	}
	return nil
}

// update runs fn in a write transaction, which it stamps as one that kept
// the index (see indexBucket). A damaged file is an error wrapping
// ErrCorrupt.
func (s *Store) update(fn func(*bolt.Tx) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = corrupt(s.path, p)
		}
	}()
	return s.db.Update(func(tx *bolt.Tx) error {
		defer s.releaser.release(tx)
		if err := fn(tx); err != nil {
			return err
		}
		return stamp(tx)
	})
}

// view runs fn in a read transaction. A damaged file is an error wrapping
// ErrCorrupt.
func (s *Store) view(fn func(*bolt.Tx) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = corrupt(s.path, p)
		}
	}()
	return s.db.View(func(tx *bolt.Tx) error {
		defer s.releaser.release(tx)
		return fn(tx)
	})
}
