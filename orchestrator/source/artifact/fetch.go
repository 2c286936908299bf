package artifact

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/fluxcd/pkg/tar"
)

// Fetcher downloads artifacts into a cache.
type Fetcher struct {
	// CacheDir holds the extracted artifacts, by digest.
	CacheDir string
	// Client is the HTTP client; http.DefaultClient when nil.
	Client *http.Client
}

// digestRE is the only digest form accepted: it never names a path
// outside the cache.
var digestRE = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// Fetch returns the directory holding the artifact's content: from the
// cache when its digest is there, else downloaded from url, checked
// against digest and extracted.
func (f *Fetcher) Fetch(ctx context.Context, url, digest string) (string, error) {
	if !digestRE.MatchString(digest) {
		return "", fmt.Errorf("fetch artifact %s: digest %q is not sha256:<64 hex digits>", url, digest)
	}
	dir := filepath.Join(f.CacheDir, "sha256", strings.TrimPrefix(digest, "sha256:"))
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		return dir, nil
	}
	body, err := f.download(ctx, url)
	if err != nil {
		return "", fmt.Errorf("fetch artifact %s: %w", url, err)
	}
	sum := sha256.Sum256(body)
	if got := "sha256:" + hex.EncodeToString(sum[:]); got != digest {
		return "", fmt.Errorf("fetch artifact %s: digest mismatch: content is %s, status.artifact.digest says %s: the artifact changed or was tampered with; nothing was run", url, got, digest)
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", fmt.Errorf("fetch artifact %s: %w", url, err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".tmp-")
	if err != nil {
		return "", fmt.Errorf("fetch artifact %s: %w", url, err)
	}
	defer os.RemoveAll(tmp)
	if err := tar.Untar(bytes.NewReader(body), tmp, tar.WithMaxUntarSize(tar.UnlimitedUntarSize), tar.WithSkipSymlinks()); err != nil {
		return "", fmt.Errorf("fetch artifact %s: extract: %w", url, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if fi, serr := os.Stat(dir); serr == nil && fi.IsDir() {
			// Another fetch of the same digest got there first.
			return dir, nil
		}
		return "", fmt.Errorf("fetch artifact %s: %w", url, err)
	}
	return dir, nil
}

// download reads the whole artifact: its digest must be checked before
// any of it is used.
func (f *Fetcher) download(ctx context.Context, url string) ([]byte, error) {
	c := f.Client
	if c == nil {
		c = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET: %s", resp.Status)
	}
	return io.ReadAll(resp.Body)
}
