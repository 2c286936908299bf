package runjob

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/fluxcd/pkg/tar"
)

// fetch downloads the artifact's tarball, checks its digest, and unpacks
// it into dir/src.
func fetch(ctx context.Context, url, digest, dir string) error {
	algo, want, ok := strings.Cut(digest, ":")
	if !ok || algo != "sha256" || len(want) != sha256.Size*2 {
		return fmt.Errorf("fetch %s: digest %q is not sha256:<hex>", url, digest)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("fetch %s: %w", url, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("fetch %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("fetch %s: %s", url, resp.Status)
	}
	f, err := os.CreateTemp(dir, ".artifact-*.tar.gz")
	if err != nil {
		return fmt.Errorf("fetch %s: %w", url, err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(f, h), resp.Body); err != nil {
		return fmt.Errorf("fetch %s: %w", url, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		return fmt.Errorf("fetch %s: digest sha256:%s, want %s: the artifact changed or was tampered with; nothing was run", url, got, digest)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("fetch %s: %w", url, err)
	}
	if err := tar.Untar(f, filepath.Join(dir, "src")); err != nil {
		return fmt.Errorf("unpack %s: %w", url, err)
	}
	return nil
}
