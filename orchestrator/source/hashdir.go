package source

import (
	"io"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/mod/sumdb/dirhash"
)

// dirHash is one directory's h1 hash, computed once.
type dirHash struct {
	once sync.Once
	sum  string
	err  error
}

// hashDir returns the h1 hash of dir. A Resolver hashes each directory
// once, the first time a stack asks for it: the stacks of one reconcile
// that share their code share its digest, and read it once.
func (r *Resolver) hashDir(dir string) (string, error) {
	r.mu.Lock()
	if r.hashes == nil {
		r.hashes = map[string]*dirHash{}
	}
	h := r.hashes[dir]
	if h == nil {
		h = &dirHash{}
		r.hashes[dir] = h
	}
	r.mu.Unlock()
	h.once.Do(func() { h.sum, h.err = hashDir(dir) })
	return h.sum, h.err
}

// hashDir is dirhash.HashDir(dir, "", dirhash.Hash1), reading every file
// through a shared buffer instead of a new one per file.
func hashDir(dir string) (string, error) {
	files, err := dirhash.DirFiles(dir, "")
	if err != nil {
		return "", err
	}
	return dirhash.Hash1(files, func(name string) (io.ReadCloser, error) {
		f, err := os.Open(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			return nil, err
		}
		return pooledFile{f}, nil
	})
}

// copyBuffers are the buffers files are hashed through.
var copyBuffers = sync.Pool{New: func() any {
	b := make([]byte, 32<<10)
	return &b
}}

// pooledFile is a file whose WriteTo copies through a pooled buffer: an
// *os.File's own WriteTo, to anything but a socket, allocates 32 KiB
// every time.
type pooledFile struct{ *os.File }

// WriteTo copies the rest of the file to w.
func (f pooledFile) WriteTo(w io.Writer) (int64, error) {
	buf := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(buf)
	return io.CopyBuffer(w, struct{ io.Reader }{f.File}, *buf)
}
