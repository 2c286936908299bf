package oci

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
)

// tmpPrefix starts the name of an entry being extracted. Such a directory
// is never an entry: entries appear by renaming it.
const tmpPrefix = ".tmp-"

// staleAfter is how old an unfinished extraction must be to be removed:
// it was left by a process that was killed.
const staleAfter = time.Hour

// parseDigest accepts "sha256:<64 hex>" only, so a digest can never name
// a path outside the cache.
func parseDigest(s string) (v1.Hash, error) {
	h, err := v1.NewHash(s)
	if err != nil {
		return v1.Hash{}, fmt.Errorf("invalid digest %q: %w", s, err)
	}
	if h.Algorithm != "sha256" {
		return v1.Hash{}, fmt.Errorf("invalid digest %q: only sha256 is supported", s)
	}
	return h, nil
}

// Cached returns the directory of a cached artefact's content and whether
// it is there. It does no network I/O.
func (c *Client) Cached(digest string) (string, bool) {
	h, err := parseDigest(digest)
	if err != nil {
		return "", false
	}
	dir := c.entryDir(h)
	fi, err := os.Stat(dir)
	return dir, err == nil && fi.IsDir()
}

// entryDir is where an artefact's extracted content lives:
// CacheDir/sha256/<hex>.
func (c *Client) entryDir(h v1.Hash) string {
	return filepath.Join(c.cacheDir, h.Algorithm, h.Hex)
}

// install fills a fresh temporary directory next to the entry and renames
// it into place, so the entry is either absent or complete. When another
// process installed the same digest first, its entry is kept.
func (c *Client) install(h v1.Hash, fill func(dir string) error) (string, error) {
	dst := c.entryDir(h)
	parent := filepath.Dir(dst)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("cache: %w", err)
	}
	sweep(parent, time.Now().Add(-staleAfter))
	tmp, err := os.MkdirTemp(parent, tmpPrefix+h.Hex+"-")
	if err != nil {
		return "", fmt.Errorf("cache: %w", err)
	}
	if err := fill(tmp); err != nil {
		_ = os.RemoveAll(tmp)
		return "", err
	}
	// MkdirTemp makes 0700; the entry is as readable as its parent.
	if err := os.Chmod(tmp, 0o755); err != nil {
		_ = os.RemoveAll(tmp)
		return "", fmt.Errorf("cache: %w", err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		_ = os.RemoveAll(tmp)
		if fi, serr := os.Stat(dst); serr == nil && fi.IsDir() {
			return dst, nil
		}
		return "", fmt.Errorf("cache: %w", err)
	}
	return dst, nil
}

// sweep removes unfinished extractions older than before. Errors are
// ignored: a leftover only costs space.
func sweep(dir string, before time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), tmpPrefix) {
			continue
		}
		fi, err := e.Info()
		if err != nil || fi.ModTime().After(before) {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			continue
		}
	}
}
