package providers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/registry-mirror/mirrortest"
	"github.com/strata-iac/strata/registry-mirror/protocol"
)

// pullSetup is an upstream strata registry, holding the packages added
// to its store, and an empty pull-through cache in front of it.
type pullSetup struct {
	key           *SigningKey
	upstreamStore *Store
	upstreamDir   string
	upstream      *mirrortest.Server
	cacheStore    *Store
	cache         *mirrortest.Server
}

// newPullSetup starts the upstream, whose handler wrap may change, and the
// cache with opts (Upstream and UpstreamClient are set here).
func newPullSetup(t *testing.T, wrap func(http.Handler) http.Handler, opts Options) *pullSetup {
	t.Helper()
	upstreamStore, upstreamDir := newDirStore(t)
	cacheStore, _ := newDirStore(t)
	p := &pullSetup{key: testSigningKey(t), upstreamStore: upstreamStore, upstreamDir: upstreamDir, cacheStore: cacheStore}
	add(t, p.upstreamStore, "0.1.0", "linux", "amd64")
	add(t, p.upstreamStore, "0.1.0", "darwin", "arm64")
	add(t, p.upstreamStore, "0.2.0", "linux", "amd64")
	var h http.Handler = testServer(p.upstreamStore, Options{SigningKey: p.key})
	if wrap != nil {
		h = wrap(h)
	}
	p.upstream = mirrortest.Serve(t, h)
	opts.Upstream = p.upstream.Host()
	opts.UpstreamClient = p.upstream.Client()
	opts.Logger = mirrortest.Logger(t)
	if err := opts.Check(); err != nil {
		t.Fatalf("Options.Check() = %v, want nil", err)
	}
	p.cache = mirrortest.Serve(t, testServer(p.cacheStore, opts))
	return p
}

// get GETs path from the cache and returns the status and body.
func (p *pullSetup) get(t *testing.T, path string) (int, []byte) {
	t.Helper()
	resp, err := p.cache.Client().Get(strings.TrimSuffix(p.cache.URL, "/") + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, body
}

// held lists the archives the cache holds of a version.
func (p *pullSetup) held(t *testing.T, version string) map[string]Archive {
	t.Helper()
	a, err := p.cacheStore.Archives(context.Background(), testHost, testNS, testType, version)
	if errors.Is(err, protocol.ErrNotFound) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// upstreamArchive is an archive of the upstream's store.
func (p *pullSetup) upstreamArchive(t *testing.T, version, platform string) Archive {
	t.Helper()
	a, err := p.upstreamStore.Archives(context.Background(), testHost, testNS, testType, version)
	if err != nil {
		t.Fatal(err)
	}
	return a[platform]
}

const pullBase = "/" + testHost + "/" + testNS + "/" + testType + "/"

func TestPullThroughArchive(t *testing.T) {
	p := newPullSetup(t, nil, Options{UpstreamKeys: nil})
	name := ArchiveName(testType, "0.1.0", "linux", "amd64")
	want, err := os.ReadFile(filepath.Join(p.upstreamDir, testHost, testNS, testType, name))
	if err != nil {
		t.Fatal(err)
	}
	// Concurrent requests share one download.
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			status, body := p.get(t, pullBase+name)
			if status != 200 || !bytes.Equal(body, want) {
				t.Errorf("GET %s = %d (%d bytes), want 200 and the upstream's %d bytes", name, status, len(body), len(want))
			}
		})
	}
	wg.Wait()
	if n := mirrortest.Count(p.upstream.Requests(), pullBase+name); n != 1 {
		t.Errorf("upstream served the archive %d times, want 1", n)
	}
	if diff := cmp.Diff(p.upstreamArchive(t, "0.1.0", "linux_amd64"), p.held(t, "0.1.0")["linux_amd64"]); diff != "" {
		t.Errorf("held archive mismatch (-upstream +cache):\n%s", diff)
	}

	p.upstream.Reset()
	if status, _ := p.get(t, pullBase+name); status != 200 {
		t.Errorf("GET %s again = %d, want 200", name, status)
	}
	var index map[string]map[string]Archive
	_, body := p.get(t, pullBase+"0.1.0.json")
	if err := json.Unmarshal(body, &index); err != nil {
		t.Fatal(err)
	}
	wantIndex := map[string]Archive{
		"linux_amd64":  p.upstreamArchive(t, "0.1.0", "linux_amd64"),
		"darwin_arm64": {URL: ArchiveName(testType, "0.1.0", "darwin", "arm64"), Hashes: p.upstreamArchive(t, "0.1.0", "darwin_arm64").Hashes[1:]},
	}
	if diff := cmp.Diff(wantIndex, index["archives"]); diff != "" {
		t.Errorf("0.1.0.json after the pull mismatch (-want +got):\n%s", diff)
	}
	for _, r := range p.upstream.Requests() {
		if strings.HasSuffix(r.Path, ".zip") || strings.Contains(r.Path, "/download/") {
			t.Errorf("upstream asked %s after the pull, want no request for the archive", r.Path)
		}
	}
}

func TestPullThroughRefuses(t *testing.T) {
	other := testSigningKey(t)
	name := ArchiveName(testType, "0.1.0", "linux", "amd64")
	rewrite := mirrortest.RewriteResponses
	editDownload := func(f func(*registryDownload)) func([]byte) []byte {
		return func(b []byte) []byte {
			var d registryDownload
			json.Unmarshal(b, &d)
			f(&d)
			out, _ := json.Marshal(d)
			return out
		}
	}
	stopped := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
		})
	}

	tests := []struct {
		name       string
		wrap       func(http.Handler) http.Handler
		opts       Options
		path       string
		wantStatus int
		wantBody   []string
	}{
		{"pinned key is another", nil, Options{UpstreamKeys: other.KeyRing()}, pullBase + name, 502,
			[]string{"bad signature", other.KeyID()}},
		{"signed by another key than the upstream names", rewrite(".sig", func([]byte) []byte {
			sig, _ := other.Sign([]byte("something else"))
			return sig
		}), Options{}, pullBase + name, 502, []string{"bad signature"}},
		{"download answer's shasum differs from SHA256SUMS", rewrite("/download/linux/amd64", editDownload(func(d *registryDownload) {
			d.SHASum = strings.Repeat("0", 64)
		})), Options{}, pullBase + name, 502, []string{"checksum mismatch", "in the signed SHA256SUMS"}},
		{"download answer for another platform", rewrite("/download/linux/amd64", editDownload(func(d *registryDownload) {
			d.OS = "darwin"
		})), Options{}, pullBase + name, 502, []string{"the answer is for darwin_amd64"}},
		{"plain http download", rewrite("/download/linux/amd64", editDownload(func(d *registryDownload) {
			d.DownloadURL = "http://127.0.0.1:1/x.zip"
		})), Options{}, pullBase + name, 502, []string{"is not https"}},
		{"upstream down, nothing held", stopped, Options{}, pullBase + "index.json", 502,
			[]string{"upstream registry", "503 Service Unavailable"}},
		{"upstream is no provider registry", rewrite("terraform.json", func([]byte) []byte {
			return []byte(`{"modules.v1":"/v1/modules/"}`)
		}), Options{}, pullBase + "index.json", 502, []string{"names no providers.v1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPullSetup(t, tt.wrap, tt.opts)
			status, body := p.get(t, tt.path)
			if status != tt.wantStatus {
				t.Errorf("GET %s = %d %q, want %d", tt.path, status, body, tt.wantStatus)
			}
			for _, w := range tt.wantBody {
				if !strings.Contains(string(body), w) {
					t.Errorf("GET %s = %q, want it to say %q", tt.path, body, w)
				}
			}
			if held := p.held(t, "0.1.0"); len(held) != 0 {
				t.Errorf("cache holds %v, want nothing", held)
			}
		})
	}

	t.Run("no key named and none pinned: SHA256SUMS only", func(t *testing.T) {
		p := newPullSetup(t, rewrite("/download/linux/amd64", editDownload(func(d *registryDownload) {
			d.SigningKeys.GPGPublicKeys = nil
		})), Options{})
		if status, body := p.get(t, pullBase+name); status != 200 {
			t.Errorf("GET %s = %d %q, want 200", name, status, body)
		}
		if n := mirrortest.Count(p.upstream.Requests(), Path+testNS+"/"+testType+"/0.1.0/"+SHA256SumsName(testType, "0.1.0")+".sig"); n != 0 {
			t.Errorf("upstream signature requests = %d, want 0 without a key to check it against", n)
		}
	})
}

// TestPullThroughChain puts a pull-through cache that is itself a
// registry in front of the upstream: its Provider Registry Protocol
// pulls the package through too, and signs the SHA256SUMS with its own
// key.
func TestPullThroughChain(t *testing.T) {
	key := testSigningKey(t)
	p := newPullSetup(t, nil, Options{SigningKey: key})
	var versions registryVersions
	status, body := p.get(t, Path+testNS+"/"+testType+"/versions")
	if status != 200 || json.Unmarshal(body, &versions) != nil {
		t.Fatalf("GET versions = %d %q, want 200", status, body)
	}
	if got := len(versions.Versions); got != 2 {
		t.Errorf("GET versions = %+v, want the upstream's 2 versions", versions)
	}
	var d registryDownload
	status, body = p.get(t, Path+testNS+"/"+testType+"/0.1.0/download/linux/amd64")
	if status != 200 || json.Unmarshal(body, &d) != nil {
		t.Fatalf("GET download = %d %q, want 200", status, body)
	}
	if want := strings.TrimPrefix(p.upstreamArchive(t, "0.1.0", "linux_amd64").Hashes[1], "zh:"); d.SHASum != want {
		t.Errorf("download shasum = %q, want the upstream's %q", d.SHASum, want)
	}
	if d.SigningKeys.GPGPublicKeys[0].KeyID != key.KeyID() {
		t.Errorf("download key = %q, want the cache's own %q", d.SigningKeys.GPGPublicKeys[0].KeyID, key.KeyID())
	}
	if len(p.held(t, "0.1.0")) != 1 {
		t.Errorf("cache holds %v, want the pulled linux_amd64 archive", p.held(t, "0.1.0"))
	}
}
