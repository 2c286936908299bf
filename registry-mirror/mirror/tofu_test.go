package mirror

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/tofu"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
	"github.com/strata-iac/strata/registry-mirror/mirror/mirrortest"
)

// stackConfig uses the test provider: strata_echo's output is its input.
const stackConfig = `terraform {
  required_providers {
    strata = {
      source  = "` + mirrortest.ProviderSource + `"
      version = "0.1.0"
    }
  }
}

resource "strata_echo" "hello" {
  input = "hello from the mirror"
}

output "echo" {
  value = strata_echo.hello.output
}
`

// TestTofuInstallsFromMirror is the end-to-end test: the real test
// provider, built and uploaded, served over https, installed by a real
// tofu init through a network_mirror, and run by tofu apply; then a second
// working directory with the same plugin cache and lock file installs it
// without downloading anything. It runs on a directory store and on an S3
// store.
func TestTofuInstallsFromMirror(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the test provider and runs tofu; skipped with -short")
	}
	tofuBin := tofutest.Binary(t)
	prov := mirrortest.BuildProvider(t, "0.1.0")
	t.Logf("built the test provider in %s", prov.BuildTime.Round(time.Millisecond))
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { installFromMirror(t, tofuBin, prov, b.new(t)) })
	}
}

// installFromMirror is TestTofuInstallsFromMirror on one store.
func installFromMirror(t *testing.T, tofuBin string, prov mirrortest.Provider, store *Store) {
	ctx := context.Background()
	f, err := os.Open(prov.Zip)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := store.AddProvider(ctx, mirrortest.ProviderHostname, mirrortest.ProviderNamespace, mirrortest.ProviderType,
		prov.Version, prov.OS, prov.Arch, f); err != nil {
		t.Fatalf("AddProvider(%q) = %v, want nil", prov.Zip, err)
	}
	archives, err := store.Archives(ctx, mirrortest.ProviderHostname, mirrortest.ProviderNamespace, mirrortest.ProviderType, prov.Version)
	if err != nil {
		t.Fatal(err)
	}
	served := archives[Platform(prov.OS, prov.Arch)].Hashes

	srv := mirrortest.Serve(t, NewServer(store, Options{}))
	// A cache path that must be escaped proves tofu.CLIConfig quotes it as tofu
	// reads it.
	cache := filepath.Join(t.TempDir(), `plugin "cache" \ dir`)
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	cliConfig := filepath.Join(t.TempDir(), "tofu.rc")
	if err := os.WriteFile(cliConfig, []byte(tofu.CLIConfig(srv.URL, cache)), 0o644); err != nil {
		t.Fatal(err)
	}
	tofuEnv := func(caFile string) []string {
		return []string{"TF_CLI_CONFIG_FILE=" + cliConfig, "SSL_CERT_FILE=" + caFile, "TF_IN_AUTOMATION=1"}
	}
	env := tofuEnv(srv.Certs.CAFile)
	zipPath := "/" + mirrortest.ProviderHostname + "/" + mirrortest.ProviderSource + "/" + filepath.Base(prov.Zip)

	first := stackDir(t)
	start := time.Now()
	runTofu(t, tofuBin, first, env, "init", "-input=false", "-no-color")
	t.Logf("first tofu init (download from the mirror) took %s", time.Since(start).Round(time.Millisecond))
	if got := srv.Requests(); !slices.ContainsFunc(got, func(r mirrortest.Request) bool { return r.Path == zipPath && r.Status == 200 }) {
		t.Errorf("first init requests = %v, want a download of %s", got, zipPath)
	}

	t.Run("lock file records the served hashes", func(t *testing.T) {
		got := lockHashes(t, filepath.Join(first, ".terraform.lock.hcl"))
		want := slices.Clone(served)
		slices.Sort(want)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf(".terraform.lock.hcl hashes mismatch (-served +locked):\n%s", diff)
		}
	})

	t.Run("the provider runs", func(t *testing.T) {
		runTofu(t, tofuBin, first, env, "apply", "-auto-approve", "-input=false", "-no-color")
		got := strings.TrimSpace(runTofu(t, tofuBin, first, env, "output", "-raw", "echo"))
		if want := "hello from the mirror"; got != want {
			t.Errorf("tofu output -raw echo = %q, want %q", got, want)
		}
	})

	t.Run("cached: a second workspace downloads nothing", func(t *testing.T) {
		second := stackDir(t)
		lock, err := os.ReadFile(filepath.Join(first, ".terraform.lock.hcl"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(second, ".terraform.lock.hcl"), lock, 0o644); err != nil {
			t.Fatal(err)
		}
		srv.Reset()
		start := time.Now()
		out := runTofu(t, tofuBin, second, env, "init", "-input=false", "-no-color")
		t.Logf("second tofu init (from the plugin cache) took %s", time.Since(start).Round(time.Millisecond))
		// tofu always asks the mirror which versions exist (index.json),
		// a few bytes; the package comes from the cache.
		for _, r := range srv.Requests() {
			if !strings.HasSuffix(r.Path, "/index.json") {
				t.Errorf("second init requested %s %s (%d), want only index.json\n%s", r.Method, r.Path, r.Status, out)
			}
		}
		if !strings.Contains(out, "Using "+mirrortest.ProviderSource+" v0.1.0 from the shared cache directory") {
			t.Errorf("second tofu init = %s, want the provider used from the shared cache directory", out)
		}
		cached := filepath.Join(cache, mirrortest.ProviderHostname, mirrortest.ProviderSource, "0.1.0", Platform(prov.OS, prov.Arch))
		if _, err := os.Stat(cached); err != nil {
			t.Errorf("Stat(%q) = %v, want the provider unpacked in the plugin cache", cached, err)
		}
		runTofu(t, tofuBin, second, env, "apply", "-auto-approve", "-input=false", "-no-color")
	})

	t.Run("tofu trusts the mirror only through SSL_CERT_FILE", func(t *testing.T) {
		dir := stackDir(t)
		emptyCA := filepath.Join(t.TempDir(), "empty.pem")
		if err := os.WriteFile(emptyCA, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		noCA := tofuEnv(emptyCA)
		out, err := tofuCmd(t, tofuBin, dir, noCA, "init", "-input=false", "-no-color")
		if err == nil || !strings.Contains(out, "x509") {
			t.Errorf("tofu init without the CA = %v, want an x509 error:\n%s", err, out)
		}
	})
}

// stackDir is a new working directory holding stackConfig.
func stackDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(stackConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runTofu runs tofu in dir and returns its output; it fails the test when
// tofu fails.
func runTofu(t *testing.T, tofu, dir string, env []string, args ...string) string {
	t.Helper()
	out, err := tofuCmd(t, tofu, dir, env, args...)
	if err != nil {
		t.Fatalf("tofu %s = %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func tofuCmd(t *testing.T, tofu, dir string, env []string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tofu, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

var lockHashRE = regexp.MustCompile(`"((?:h1|zh):[^"]+)"`)

// lockHashes are the hashes in a .terraform.lock.hcl, sorted.
func lockHashes(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range lockHashRE.FindAllStringSubmatch(string(data), -1) {
		got = append(got, m[1])
	}
	slices.Sort(got)
	return got
}
