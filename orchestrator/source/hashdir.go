package source

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"golang.org/x/mod/sumdb/dirhash"

	"github.com/strata-iac/strata/orchestrator/checkout"
)

// dirHash is one directory's h1 hash, computed once.
type dirHash struct {
	once sync.Once
	sum  string
	err  error
}

// hashDir returns the h1 hash of dir, without the files rules leave out
// (none when rules is nil). A Resolver hashes each directory once, the
// first time a stack asks for it: the stacks of one reconcile that share
// their code share its digest, and read it once.
func (r *Resolver) hashDir(dir string, rules *checkout.Rules) (string, error) {
	key := dir
	if rules != nil {
		key += "\x00" + rules.Key()
	}
	r.mu.Lock()
	if r.hashes == nil {
		r.hashes = map[string]*dirHash{}
	}
	h := r.hashes[key]
	if h == nil {
		h = &dirHash{}
		r.hashes[key] = h
	}
	r.mu.Unlock()
	h.once.Do(func() { h.sum, h.err = hashDir(dir, rules) })
	return h.sum, h.err
}

// checkoutRules returns the rules of the checkout at r.Root for a
// GitRepository whose spec.ignore is ignore, made once per reconcile.
func (r *Resolver) checkoutRules(ignore *string) *checkout.Rules {
	r.mu.Lock()
	if r.rules == nil {
		r.rules = checkout.NewCache(r.Root, nil)
	}
	c := r.rules
	r.mu.Unlock()
	return c.For(ignore)
}

// hashDir is dirhash.HashDir(dir, "", dirhash.Hash1) of the files rules
// keep, reading every file through a shared buffer instead of a new one
// per file.
func hashDir(dir string, rules *checkout.Rules) (string, error) {
	files, err := dirhash.DirFiles(dir, "")
	if err != nil {
		return "", err
	}
	if rules != nil {
		files = slices.DeleteFunc(files, func(name string) bool {
			return rules.Skip(filepath.Join(dir, filepath.FromSlash(name)), false)
		})
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
