package mirror

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/strata-iac/strata/orchestrator/tofu"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
	"github.com/strata-iac/strata/registry-mirror/mirror/mirrortest"
)

// TestTofuPullsThroughCache is the pull-through cache's end-to-end test.
// The upstream is a strata server holding the real test provider and
// serving the Provider Registry Protocol over https with a signing key;
// the cache is a second strata server, empty, whose Upstream is the first.
// A real tofu, configured with a network_mirror to the cache, asks it for
// registry.opentofu.org/strata-iac/strata: the cache pulls the package
// from the upstream, checks it against the signed SHA256SUMS, stores and
// serves it, and tofu applies. A second init in a fresh working directory
// (no plugin cache, no lock file) is then served by the cache with the
// upstream stopped, and so is a third by a restarted cache on the same
// store. The cache runs on a directory store and on an S3 store.
func TestTofuPullsThroughCache(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the test provider and runs tofu; skipped with -short")
	}
	tofuBin := tofutest.Binary(t)
	prov := mirrortest.BuildProvider(t, "0.1.0")
	key := testSigningKey(t)
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { pullThrough(t, tofuBin, prov, key, b.new(t)) })
	}
}

// pullThrough is TestTofuPullsThroughCache on one cache store.
func pullThrough(t *testing.T, tofuBin string, prov mirrortest.Provider, key *SigningKey, cacheStore *Store) {
	ctx := context.Background()
	upstreamStore := NewStore(t.TempDir())
	addBuilt(t, upstreamStore, prov)
	upstream := mirrortest.Serve(t, NewServer(upstreamStore, Options{SigningKey: key}))
	upstreamHost := hostOf(upstream)

	opts := Options{
		Upstream:       upstreamHost,
		UpstreamClient: upstream.Client(),
		UpstreamKeys:   key.KeyRing(),
		Logger:         testLogger(t),
	}
	if err := opts.Check(); err != nil {
		t.Fatalf("Options.Check() = %v, want nil", err)
	}
	cache := mirrortest.Serve(t, NewServer(cacheStore, opts))
	cliConfig := filepath.Join(t.TempDir(), "tofu.rc")
	if err := os.WriteFile(cliConfig, []byte(tofu.CLIConfig(cache.URL, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"TF_CLI_CONFIG_FILE=" + cliConfig, "SSL_CERT_FILE=" + cache.Certs.CAFile, "TF_IN_AUTOMATION=1"}
	mirrorDir := "/" + mirrortest.ProviderHostname + "/" + mirrortest.ProviderSource + "/"
	zipName := filepath.Base(prov.Zip)
	sums := ProvidersPath + mirrortest.ProviderSource + "/0.1.0/" + SHA256SumsName(mirrortest.ProviderType, "0.1.0")

	first := stackDir(t)
	start := time.Now()
	runTofu(t, tofuBin, first, env, "init", "-input=false", "-no-color")
	t.Logf("first tofu init (pulled through) took %s", time.Since(start).Round(time.Millisecond))

	t.Run("the cache pulled the package from the upstream", func(t *testing.T) {
		wantCache := []mirrortest.Request{
			{Method: "GET", Path: mirrorDir + "index.json", Status: 200},
			{Method: "GET", Path: mirrorDir + "0.1.0.json", Status: 200},
			{Method: "GET", Path: mirrorDir + zipName, Status: 200},
		}
		if diff := cmp.Diff(wantCache, cache.Requests()); diff != "" {
			t.Errorf("cache requests mismatch (-want +got):\n%s", diff)
		}
		wantUpstream := []string{
			discoveryPath,
			ProvidersPath + mirrortest.ProviderSource + "/versions",
			ProvidersPath + mirrortest.ProviderSource + "/0.1.0/download/" + prov.OS + "/" + prov.Arch,
			sums,
			sums + ".sig",
			mirrorDir + zipName,
		}
		if diff := cmp.Diff(wantUpstream, uniquePaths(upstream.Requests())); diff != "" {
			t.Errorf("upstream requests mismatch (-want +got):\n%s", diff)
		}
		if n := count(upstream.Requests(), mirrorDir+zipName); n != 1 {
			t.Errorf("upstream served the package %d times, want 1", n)
		}
	})

	var held []string
	t.Run("the cache holds the package with its hashes", func(t *testing.T) {
		archives, err := cacheStore.Archives(ctx, mirrortest.ProviderHostname, mirrortest.ProviderNamespace, mirrortest.ProviderType, "0.1.0")
		if err != nil {
			t.Fatalf("Archives() = %v, want the pulled package", err)
		}
		upArchives, err := upstreamStore.Archives(ctx, mirrortest.ProviderHostname, mirrortest.ProviderNamespace, mirrortest.ProviderType, "0.1.0")
		if err != nil {
			t.Fatal(err)
		}
		platform := Platform(prov.OS, prov.Arch)
		if diff := cmp.Diff(upArchives[platform], archives[platform]); diff != "" {
			t.Errorf("cache's archive mismatch (-upstream +cache):\n%s", diff)
		}
		held = slices.Clone(archives[platform].Hashes)
		slices.Sort(held)
		if diff := cmp.Diff(held, lockHashes(t, filepath.Join(first, ".terraform.lock.hcl"))); diff != "" {
			t.Errorf(".terraform.lock.hcl hashes mismatch (-held +locked):\n%s", diff)
		}
	})

	t.Run("the provider runs", func(t *testing.T) {
		runTofu(t, tofuBin, first, env, "apply", "-auto-approve", "-input=false", "-no-color")
		if got := strings.TrimSpace(runTofu(t, tofuBin, first, env, "output", "-raw", "echo")); got != "hello from the mirror" {
			t.Errorf("tofu output -raw echo = %q, want %q", got, "hello from the mirror")
		}
	})

	// freshInit inits a new working directory, without plugin cache or
	// lock file, so tofu downloads the package again.
	freshInit := func(t *testing.T, srv *mirrortest.Server) {
		t.Helper()
		dir := stackDir(t)
		e := slices.Clone(env)
		e[1] = "SSL_CERT_FILE=" + srv.Certs.CAFile
		cfg := filepath.Join(t.TempDir(), "tofu.rc")
		if err := os.WriteFile(cfg, []byte(tofu.CLIConfig(srv.URL, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		e[0] = "TF_CLI_CONFIG_FILE=" + cfg
		runTofu(t, tofuBin, dir, e, "init", "-input=false", "-no-color")
		if n := count(srv.Requests(), mirrorDir+zipName); n != 1 {
			t.Errorf("cache served the package %d times to a fresh init, want 1: %v", n, srv.Requests())
		}
		if diff := cmp.Diff(held, lockHashes(t, filepath.Join(dir, ".terraform.lock.hcl"))); diff != "" {
			t.Errorf(".terraform.lock.hcl hashes mismatch (-held +locked):\n%s", diff)
		}
		runTofu(t, tofuBin, dir, e, "apply", "-auto-approve", "-input=false", "-no-color")
	}

	t.Run("later inits never go upstream for the package", func(t *testing.T) {
		upstream.Reset()
		cache.Reset()
		freshInit(t, cache)
		if got := upstream.Requests(); len(got) != 0 {
			t.Errorf("upstream requests = %v, want none", got)
		}
	})

	t.Run("upstream stopped: the cache serves what it holds", func(t *testing.T) {
		upstream.Stop()
		cache.Reset()
		freshInit(t, cache)
	})

	t.Run("upstream stopped: a restarted cache serves what it holds", func(t *testing.T) {
		restarted := mirrortest.Serve(t, NewServer(cacheStore, opts))
		freshInit(t, restarted)
	})
}

// TestTofuPullThroughRefusesTamperedPackage tampers with the package the
// upstream serves, keeping its size and modification time, so that it no
// longer matches the upstream's signed SHA256SUMS: the cache answers 502
// with the mismatch, stores nothing, and tofu init fails.
func TestTofuPullThroughRefusesTamperedPackage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the test provider and runs tofu; skipped with -short")
	}
	tofuBin := tofutest.Binary(t)
	prov := mirrortest.BuildProvider(t, "0.1.0")
	key := testSigningKey(t)
	upstreamDir := t.TempDir()
	upstreamStore := NewStore(upstreamDir)
	addBuilt(t, upstreamStore, prov)
	upstream := mirrortest.Serve(t, NewServer(upstreamStore, Options{SigningKey: key}))
	// The upstream lists the hashes it recorded at upload; the archive
	// changes under them, as on a corrupted disk or a tampered bucket.
	tamper(t, filepath.Join(upstreamDir, mirrortest.ProviderHostname, mirrortest.ProviderSource, filepath.Base(prov.Zip)))

	cacheDir := t.TempDir()
	cache := mirrortest.Serve(t, NewServer(NewStore(cacheDir), Options{
		Upstream: hostOf(upstream), UpstreamClient: upstream.Client(), Logger: testLogger(t),
	}))
	zipPath := "/" + mirrortest.ProviderHostname + "/" + mirrortest.ProviderSource + "/" + filepath.Base(prov.Zip)

	t.Run("502 with the mismatch", func(t *testing.T) {
		resp, err := cache.Client().Get(strings.TrimSuffix(cache.URL, "/") + zipPath)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadGateway {
			t.Errorf("GET %s = %d, want %d", zipPath, resp.StatusCode, http.StatusBadGateway)
		}
		for _, want := range []string{"checksum mismatch", "signed SHA256SUMS lists", "nothing was stored"} {
			if !strings.Contains(string(body), want) {
				t.Errorf("GET %s = %q, want it to say %q", zipPath, body, want)
			}
		}
	})

	t.Run("tofu init fails", func(t *testing.T) {
		cliConfig := filepath.Join(t.TempDir(), "tofu.rc")
		if err := os.WriteFile(cliConfig, []byte(tofu.CLIConfig(cache.URL, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		env := []string{"TF_CLI_CONFIG_FILE=" + cliConfig, "SSL_CERT_FILE=" + cache.Certs.CAFile, "TF_IN_AUTOMATION=1"}
		out, err := tofuCmd(t, tofuBin, stackDir(t), env, "init", "-input=false", "-no-color")
		// tofu retries a 502 a few times, then gives up on the package.
		if err == nil || !strings.Contains(out, filepath.Base(prov.Zip)) || !strings.Contains(out, "Failed to install provider") {
			t.Errorf("tofu init = %v, want a failure to install %s:\n%s", err, filepath.Base(prov.Zip), out)
		}
	})

	t.Run("the cache stored nothing", func(t *testing.T) {
		var files []string
		filepath.WalkDir(cacheDir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, path)
			}
			return nil
		})
		if len(files) != 0 {
			t.Errorf("cache files = %q, want none", files)
		}
	})
}

// tamper changes a byte in the middle of the file at path, keeping its
// size and modification time.
func tamper(t *testing.T, path string) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
}

// hostOf is the host:port of a test server.
func hostOf(s *mirrortest.Server) string {
	return strings.TrimSuffix(strings.TrimPrefix(s.URL, "https://"), "/")
}

// uniquePaths are the paths of requests, each once, in the order first
// asked.
func uniquePaths(reqs []mirrortest.Request) []string {
	var paths []string
	for _, r := range reqs {
		if !slices.Contains(paths, r.Path) {
			paths = append(paths, r.Path)
		}
	}
	return paths
}

// count is how many GETs of path were answered 200.
func count(reqs []mirrortest.Request, path string) int {
	n := 0
	for _, r := range reqs {
		if r.Path == path && r.Method == http.MethodGet && r.Status == http.StatusOK {
			n++
		}
	}
	return n
}

// testLogger logs to the test's log.
func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, nil))
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}
