package history

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// DefaultTimeout is how long Open waits for another process to release the
// file.
const DefaultTimeout = 5 * time.Second

// ErrBusy means another process holds the history file.
var ErrBusy = errors.New("another strata process is using it")

// interruptedError is the Error of a run that a stopped process left
// "running".
const interruptedError = "the strata process stopped before the run finished"

// Store is the history of runs in one file.
type Store struct {
	db *bolt.DB
}

// Option changes how Open opens the file.
type Option func(*options)

type options struct {
	timeout time.Duration
}

// WithTimeout sets how long Open waits for the file's lock.
func WithTimeout(d time.Duration) Option {
	return func(o *options) { o.timeout = d }
}

// Open opens the history file at path, creating it and its parent
// directories when missing. When another process holds the file, Open
// fails after the timeout (DefaultTimeout) with an error wrapping ErrBusy.
// Runs left "running" by a process that stopped are marked "interrupted".
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	o := options{timeout: DefaultTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("open history %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open history %s: %w", path, err)
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: o.timeout})
	if errors.Is(err, bolt.ErrTimeout) {
		return nil, fmt.Errorf("open history %s: %w (timeout after %s)", path, ErrBusy, o.timeout)
	}
	if err != nil {
		return nil, fmt.Errorf("open history %s: %w", path, err)
	}
	if err := db.Update(markInterrupted); err != nil {
		db.Close()
		return nil, fmt.Errorf("open history %s: mark interrupted runs: %w", path, err)
	}
	return &Store{db: db}, nil
}

// Close closes the file, releasing it to other processes.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close history %s: %w", s.db.Path(), err)
	}
	return nil
}

// markInterrupted marks every run still "running" as "interrupted". Only
// one process holds the file, so no such run can still be going.
func markInterrupted(tx *bolt.Tx) error {
	return tx.ForEach(func(client []byte, cb *bolt.Bucket) error {
		return cb.ForEachBucket(func(env []byte) error {
			eb := cb.Bucket(env)
			return eb.ForEachBucket(func(stack []byte) error {
				sb := eb.Bucket(stack)
				// Collect first: a bucket must not change under ForEach.
				var runs []Run
				err := sb.ForEach(func(k, v []byte) error {
					r, err := decode(k, v)
					if err != nil {
						return fmt.Errorf("%s/%s/%s: %w", client, env, stack, err)
					}
					if r.Result == ResultRunning {
						runs = append(runs, r)
					}
					return nil
				})
				if err != nil {
					return err
				}
				for _, r := range runs {
					r.Result = ResultInterrupted
					if r.Error == "" {
						r.Error = interruptedError
					}
					if err := putRun(sb, r); err != nil {
						return err
					}
				}
				return nil
			})
		})
	})
}
