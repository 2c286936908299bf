package storage

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"
)

// Storage is where the mirror keeps its files: a directory ([NewDir]) or
// an S3 bucket ([NewS3]). Keys are slash-separated paths relative to the
// storage's root, such as
// registry.opentofu.org/hashicorp/aws/terraform-provider-aws_5.31.0_linux_amd64.zip;
// callers check every segment of a key against strict patterns before
// the key reaches the storage.
type Storage interface {
	// Stat returns the size and modification time of the regular file at
	// key. The error wraps fs.ErrNotExist when there is none.
	Stat(ctx context.Context, key string) (FileInfo, error)
	// Open opens the regular file at key for reading. The error wraps
	// fs.ErrNotExist when there is none.
	Open(ctx context.Context, key string) (Object, error)
	// List returns the regular files directly in the directory dir (a
	// key), sorted by name; none when there is no such directory.
	List(ctx context.Context, dir string) ([]FileInfo, error)
	// Create stores the bytes of r at key, atomically and only while key
	// is free. The bytes first go to a local temporary file, on which
	// check runs (rewound to its start); an error of check or of reading r
	// stores nothing. When a file is at key already, the error wraps
	// fs.ErrExist and that file is left as it is.
	Create(ctx context.Context, key string, r io.Reader, check func(f *os.File) error) error
	// Replace writes data at key atomically, replacing any file there.
	Replace(ctx context.Context, key string, data []byte) error
	// Check makes sure the storage can be read: that the bucket answers,
	// for example.
	Check(ctx context.Context) error
	// Location names the file at key (or the root, for "") for people: a
	// path or an s3:// URL.
	Location(key string) string
}

// FileInfo is what a storage tells of a file.
type FileInfo struct {
	// Name is the file's base name.
	Name    string
	Size    int64
	ModTime time.Time
}

// Object is an open file of a storage. It seeks, so that an http.Server
// can answer range requests.
type Object interface {
	io.ReadSeekCloser
	// Info is the file's size and modification time.
	Info() FileInfo
}

// Spool copies r to f and rewinds f, for a storage's Create. Reading
// stops when ctx is done.
func Spool(ctx context.Context, f *os.File, r io.Reader) error {
	if _, err := io.Copy(f, ContextReader(ctx, r)); err != nil {
		return fmt.Errorf("read archive: %w", err)
	}
	if err := f.Sync(); err != nil {
		return err
	}
	_, err := f.Seek(0, io.SeekStart)
	return err
}

// ContextReader reads r until ctx is done, so that a long copy can be
// cancelled.
func ContextReader(ctx context.Context, r io.Reader) io.Reader {
	return ctxReader{ctx, r}
}

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (r ctxReader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	return r.r.Read(p)
}
