package flux

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/fluxcd/pkg/kustomize"
	kustypes "sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/yaml"

	"github.com/strata-iac/strata/internal/deadline"
	"github.com/strata-iac/strata/orchestrator/diag"
)

// A kustomization file may list a remote resource, an http(s) URL of a
// manifest (a release's CRDs, say). kustomize-controller fetches it at
// every build; so does strata, with a deadline, before kustomize reads
// the file: the manifest is fetched once per load (and kept on disk, for
// when the network is down), checked as any manifest of the repository
// is, and handed to kustomize in the URL's place. A git base
// (github.com/org/repo//dir?ref=v1, a URL ending in .git) is not fetched.
// What cannot be fetched holds back the Kustomization that needs it:
// Flux in the cluster reaches it.

// DefaultRemoteTimeout bounds the fetch of one remote resource when
// --remote-timeout does not say: connecting, the request and the whole
// body.
const DefaultRemoteTimeout = 30 * time.Second

// maxRemoteBytes bounds a remote resource, as a manifest of the
// repository is bounded.
const maxRemoteBytes = MaxManifestBytes

// remoteFile is a remote resource fetched, or why it could not be.
type remoteFile struct {
	body []byte
	err  error
	// stale says body is the copy kept on disk, as the fetch failed.
	stale bool
}

// isRemote reports whether a resource of a kustomization file is a URL.
func isRemote(r string) bool {
	return strings.HasPrefix(r, "https://") || strings.HasPrefix(r, "http://")
}

// isGitBase reports whether a remote resource names a git repository,
// which kustomize clones (github.com/org/repo//dir?ref=v1, a .git URL),
// rather than a manifest file.
func isGitBase(r string) bool {
	u, query, _ := strings.Cut(r, "?")
	rest := u[strings.Index(u, "://")+3:]
	return strings.Contains(query, "ref=") || strings.Contains(query, "version=") ||
		strings.Contains(rest, "//") || strings.Contains(rest, ".git/") || strings.HasSuffix(rest, ".git") || !isManifest(rest)
}

// remoteResources fetches the remote manifests a kustomization file
// lists (kfile, absolute) and hands them to kustomize in their URLs'
// places; what is remote and not fetched (a git base, a remote
// component, a fetch that failed) is a problem of the build and is taken
// out of the file, so that kustomize never reaches for the network
// itself, with no deadline. It returns the file as kustomize is to read
// it.
func (l *loader) remoteResources(fsys *checkedFS, kfile string, b []byte) []byte {
	var k kustypes.Kustomization
	if yaml.Unmarshal(b, &k) != nil {
		return b
	}
	rel := l.relPath(kfile)
	changed := false
	keep := func(list []string, fetch bool) []string {
		out := list[:0:0]
		for _, r := range list {
			if kustomize.IsLocalRelativePath(r) && !strings.Contains(r, "://") {
				out = append(out, r)
				continue
			}
			changed = true
			if !fetch || !isRemote(r) || isGitBase(r) {
				l.problem(diag.Problem{
					File:    rel,
					Message: fmt.Sprintf("%q is a remote base, which strata does not fetch: a run must be reproducible from the checkout", r),
					Fix:     fmt.Sprintf("copy the resource into the repository and refer to it by a relative path in %s", rel),
					Code:    diag.CodeUnreachable,
				})
				continue
			}
			if name, ok := l.fetchInto(fsys, kfile, rel, r); ok {
				out = append(out, name)
			}
		}
		return out
	}
	k.Resources = keep(k.Resources, true)
	k.Components = keep(k.Components, false)
	if !changed {
		return b
	}
	out, err := yaml.Marshal(k)
	if err != nil {
		return b
	}
	return out
}

// fetchInto fetches the remote manifest url of the kustomization file
// kfile and puts it in fsys beside it, checked as a manifest of the
// repository is. It returns the name kfile is to list it by, or false
// with the problem recorded.
func (l *loader) fetchInto(fsys *checkedFS, kfile, rel, url string) (string, bool) {
	f := l.fetchRemote(url)
	if f.err != nil {
		fix := fmt.Sprintf("check the URL and the network; or copy the resource into the repository and refer to it by a relative path in %s", rel)
		if errors.Is(f.err, context.DeadlineExceeded) {
			fix = "check that the server answers, or give it longer with --remote-timeout; or copy the resource into the repository and refer to it by a relative path in " + rel
		}
		l.problem(diag.Problem{
			File:    rel,
			Message: fmt.Sprintf("cannot fetch the remote resource %q: %v", url, f.err),
			Fix:     fix,
			Code:    diag.CodeUnreachable,
		})
		return "", false
	}
	// The checks every manifest of the repository has: its YAML, its
	// duplicate keys, and the bounds of aliases, nesting and mappings.
	docs, ps := decodeYAML(url, f.body)
	if len(ps) == 0 && docs != nil {
		_, ps = readShaped(url, f.body, docs, nil)
	}
	if len(ps) > 0 {
		for _, p := range ps {
			p.File = rel
			p.Message = fmt.Sprintf("the remote resource %q: %s", url, p.Message)
			l.problem(p)
		}
		return "", false
	}
	if f.stale {
		l.warn(diag.Problem{
			File:    rel,
			Message: fmt.Sprintf("the remote resource %q could not be fetched now; strata reads the copy it fetched before", url),
			Fix:     "check the network, or copy the resource into the repository",
		})
	}
	name := ".strata-remote-" + urlKey(url)[:16] + path.Ext(strings.SplitN(url, "?", 2)[0])
	fsys.virtual[filepath.Join(filepath.Dir(kfile), name)] = f.body
	return name, true
}

// fetchRemote fetches a remote manifest once per load.
func (l *loader) fetchRemote(url string) remoteFile {
	if f, ok := l.remotes[url]; ok {
		return f
	}
	if l.remotes == nil {
		l.remotes = map[string]remoteFile{}
	}
	l.readRemote = true
	timeout := l.opts.RemoteTimeout
	if timeout <= 0 {
		timeout = DefaultRemoteTimeout
	}
	body, err := getRemote(l.ctx, url, timeout)
	f := remoteFile{body: body, err: err}
	cache := remoteCachePath(url)
	switch {
	case err == nil && cache != "":
		if os.MkdirAll(filepath.Dir(cache), 0o755) == nil {
			_ = os.WriteFile(cache, body, 0o644)
		}
	case err != nil && cache != "" && l.ctx.Err() == nil:
		if kept, rerr := os.ReadFile(cache); rerr == nil {
			f = remoteFile{body: kept, stale: true}
		}
	}
	l.remotes[url] = f
	return f
}

// getRemote GETs url within timeout, refusing a body past maxRemoteBytes.
func getRemote(ctx context.Context, url string, timeout time.Duration) ([]byte, error) {
	ctx, cancel := deadline.Within(ctx, "get "+url, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, deadline.Cause(ctx, fmt.Errorf("get %s: %w", url, context.Cause(ctx)))
		}
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("get %s: %s", url, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxRemoteBytes+1))
	if err != nil {
		if ctx.Err() != nil {
			return nil, deadline.Cause(ctx, fmt.Errorf("get %s: %w", url, context.Cause(ctx)))
		}
		return nil, err
	}
	if len(b) > maxRemoteBytes {
		return nil, fmt.Errorf("get %s: larger than %d bytes", url, maxRemoteBytes)
	}
	return b, nil
}

// urlKey is the hex SHA-256 of a URL.
func urlKey(url string) string {
	sum := sha256.Sum256([]byte(url))
	return hex.EncodeToString(sum[:])
}

// remoteCachePath is where the copy of a remote resource is kept, in the
// user's cache directory; "" when there is none.
func remoteCachePath(url string) string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "strata", "remote", urlKey(url))
}
