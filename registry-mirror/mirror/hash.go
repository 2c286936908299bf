package mirror

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"

	"golang.org/x/mod/sumdb/dirhash"
)

// Hashes are the two checksums tofu checks a provider archive against and
// records in .terraform.lock.hcl.
type Hashes struct {
	// H1 is "h1:" and the base64 dirhash Hash1 of the archive's files:
	// the hash tofu computes of a package, packed or unpacked.
	H1 string
	// ZH is "zh:" and the hex SHA-256 of the archive file itself.
	ZH string
}

// List is the hashes as a version index lists them: h1 first, then zh.
func (h Hashes) List() []string { return []string{h.H1, h.ZH} }

// HashArchive computes the hashes of the zip archive at path.
func HashArchive(ctx context.Context, path string) (Hashes, error) {
	if err := ctx.Err(); err != nil {
		return Hashes{}, fmt.Errorf("hash archive %s: %w", path, err)
	}
	h1, err := dirhash.HashZip(path, dirhash.Hash1)
	if err != nil {
		return Hashes{}, fmt.Errorf("hash archive %s: %w", path, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return Hashes{}, fmt.Errorf("hash archive %s: %w", path, err)
	}
	defer f.Close()
	sum := sha256.New()
	if _, err := io.Copy(sum, ctxReader{ctx, f}); err != nil {
		return Hashes{}, fmt.Errorf("hash archive %s: %w", path, err)
	}
	return Hashes{H1: h1, ZH: "zh:" + hex.EncodeToString(sum.Sum(nil))}, nil
}

// archiveHashes returns the hashes of the archive at path, computed once
// per file content: a cached result is kept while the file keeps its size
// and modification time.
func (s *Store) archiveHashes(ctx context.Context, path string, info os.FileInfo) (Hashes, error) {
	s.mu.Lock()
	c, ok := s.hashes[path]
	s.mu.Unlock()
	if ok && c.size == info.Size() && c.modTime.Equal(info.ModTime()) {
		return c.hashes, nil
	}
	h, err := HashArchive(ctx, path)
	if err != nil {
		return Hashes{}, err
	}
	s.mu.Lock()
	s.hashes[path] = cachedHashes{size: info.Size(), modTime: info.ModTime(), hashes: h}
	s.mu.Unlock()
	return h, nil
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
