package mirror

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"
)

// storage is where a [Store] keeps its files: a directory (dirStorage) or
// an S3 bucket (s3Storage). Keys are slash-separated paths relative to the
// storage's root, such as
// registry.opentofu.org/hashicorp/aws/terraform-provider-aws_5.31.0_linux_amd64.zip;
// the Store checks every segment of a key against strict patterns before
// the key reaches the storage.
type storage interface {
	// stat returns the size and modification time of the regular file at
	// key. The error wraps fs.ErrNotExist when there is none.
	stat(ctx context.Context, key string) (fileInfo, error)
	// open opens the regular file at key for reading. The error wraps
	// fs.ErrNotExist when there is none.
	open(ctx context.Context, key string) (object, error)
	// list returns the regular files directly in the directory dir (a
	// key), sorted by name; none when there is no such directory.
	list(ctx context.Context, dir string) ([]fileInfo, error)
	// create stores the bytes of r at key, atomically and only while key
	// is free. The bytes first go to a local temporary file, on which
	// check runs (rewound to its start); an error of check or of reading r
	// stores nothing. When a file is at key already, the error wraps
	// fs.ErrExist and that file is left as it is.
	create(ctx context.Context, key string, r io.Reader, check func(f *os.File) error) error
	// replace writes data at key atomically, replacing any file there.
	replace(ctx context.Context, key string, data []byte) error
	// check makes sure the storage can be read: that the bucket answers,
	// for example.
	check(ctx context.Context) error
	// location names the file at key (or the root, for "") for people: a
	// path or an s3:// URL.
	location(key string) string
}

// fileInfo is what a storage tells of a file.
type fileInfo struct {
	// name is the file's base name.
	name    string
	size    int64
	modTime time.Time
}

// object is an open file of a storage. It seeks, so that an http.Server
// can answer range requests.
type object interface {
	io.ReadSeekCloser
	// info is the file's size and modification time.
	info() fileInfo
}

// spool copies r to f and rewinds f, for a storage's create. Reading stops
// when ctx is done.
func spool(ctx context.Context, f *os.File, r io.Reader) error {
	if _, err := io.Copy(f, ctxReader{ctx, r}); err != nil {
		return fmt.Errorf("read archive: %w", err)
	}
	if err := f.Sync(); err != nil {
		return err
	}
	_, err := f.Seek(0, io.SeekStart)
	return err
}

// ctxReader stops reading once its context is done, so a long copy can be
// cancelled.
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
