package artifact

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
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
	// Kept reads the artifacts of KeptURL: the code a stack last ran,
	// kept in strata's records once its source is gone.
	Kept Kept
}

// Kept is where the artifacts strata keeps are read from
// (records.Records.KeptArtifact): the artifact of digest a stack kept.
type Kept interface {
	KeptArtifact(ctx context.Context, client, env, stack, digest string) ([]byte, error)
}

// KeptScheme is the scheme of KeptURL.
const KeptScheme = "strata-kept"

// KeptURL names the artifact a stack kept in strata's records, for a
// run whose source has none any more (its source object deleted): the
// fetch reads it from Fetcher.Kept, by the digest given with it.
func KeptURL(client, env, stack string) string {
	return KeptScheme + ":" + url.PathEscape(client) + "/" + url.PathEscape(env) + "/" + url.PathEscape(stack)
}

// kept reads the artifact a KeptURL names; ok is false for another URL.
func (f *Fetcher) kept(ctx context.Context, u, digest string) (body []byte, ok bool, err error) {
	client, env, stack, ok, err := parseKeptURL(u)
	if !ok || err != nil {
		return nil, ok, err
	}
	if f.Kept == nil {
		return nil, true, errors.New("the artifact is kept in strata's records, which this process was not given")
	}
	body, err = f.Kept.KeptArtifact(ctx, client, env, stack, digest)
	return body, true, err
}

// parseKeptURL reads the client, environment and stack a KeptURL names;
// ok is false for a URL of another scheme.
func parseKeptURL(u string) (client, env, stack string, ok bool, err error) {
	rest, ok := strings.CutPrefix(u, KeptScheme+":")
	if !ok {
		return "", "", "", false, nil
	}
	parts := strings.Split(rest, "/")
	if len(parts) != 3 {
		return "", "", "", true, fmt.Errorf("%s is not %s:<client>/<env>/<stack>", u, KeptScheme)
	}
	for i, p := range parts {
		if parts[i], err = url.PathUnescape(p); err != nil {
			return "", "", "", true, fmt.Errorf("%s: %w", u, err)
		}
	}
	return parts[0], parts[1], parts[2], true, nil
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
	body, kept, err := f.kept(ctx, url, digest)
	if !kept {
		body, err = f.download(ctx, url)
	}
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

// Download reads the whole artifact at url and checks its sha256
// against digest: the tarball itself, for strata to keep.
func (f *Fetcher) Download(ctx context.Context, url, digest string) ([]byte, error) {
	body, err := f.download(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("download artifact %s: %w", url, err)
	}
	sum := sha256.Sum256(body)
	if got := "sha256:" + hex.EncodeToString(sum[:]); got != digest {
		return nil, fmt.Errorf("download artifact %s: digest mismatch: content is %s, status.artifact.digest says %s", url, got, digest)
	}
	return body, nil
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
