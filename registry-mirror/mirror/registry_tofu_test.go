package mirror

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
	"github.com/strata-iac/strata/registry-mirror/mirrortest"
	"github.com/strata-iac/strata/registry-mirror/protocol"
	"github.com/strata-iac/strata/registry-mirror/providers"
)

// directCLIConfig is a tofu CLI configuration that installs every
// provider from its origin registry.
const directCLIConfig = `provider_installation {
  direct {}
}
`

// registryStackConfig uses the test provider from the registry at host.
func registryStackConfig(host string) string {
	return strings.Replace(stackConfig, `"`+mirrortest.ProviderSource+`"`, `"`+host+"/"+mirrortest.ProviderSource+`"`, 1)
}

// TestTofuInstallsFromRegistry is the providers.Provider Registry Protocol's
// end-to-end test: a strata server with a signing key holds the real test
// provider; a real tofu, told to install providers directly from their
// registry, installs it from source = "127.0.0.1:PORT/strata-iac/strata",
// checking the SHA256SUMS and its signature, and runs it. It runs on a
// directory store and on an S3 store.
func TestTofuInstallsFromRegistry(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the test provider and runs tofu; skipped with -short")
	}
	tofu := tofutest.Binary(t)
	prov := mirrortest.BuildProvider(t, "0.1.0")
	key := testSigningKey(t)
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			store := b.new(t)
			addBuilt(t, store, prov)
			srv := mirrortest.Serve(t, NewServer(store, Options{SigningKey: key}))
			host := strings.TrimSuffix(strings.TrimPrefix(srv.URL, "https://"), "/")

			cliConfig := filepath.Join(t.TempDir(), "tofu.rc")
			if err := os.WriteFile(cliConfig, []byte(directCLIConfig), 0o644); err != nil {
				t.Fatal(err)
			}
			env := []string{"TF_CLI_CONFIG_FILE=" + cliConfig, "SSL_CERT_FILE=" + srv.Certs.CAFile, "TF_IN_AUTOMATION=1"}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(registryStackConfig(host)), 0o644); err != nil {
				t.Fatal(err)
			}
			out := runTofu(t, tofu, dir, env, "init", "-input=false", "-no-color")
			// tofu names the key that signed the SHA256SUMS.
			if want := "Installed " + host + "/" + mirrortest.ProviderSource + " v0.1.0 (signed, key ID " + key.KeyID() + ")"; !strings.Contains(out, want) {
				t.Errorf("tofu init = %s\nwant %q", out, want)
			}
			var paths []string
			for _, r := range srv.Requests() {
				paths = append(paths, r.Method+" "+r.Path)
			}
			sums := providers.Path + mirrortest.ProviderSource + "/0.1.0/" + providers.SHA256SumsName(mirrortest.ProviderType, "0.1.0")
			want := []string{
				"GET " + protocol.DiscoveryPath,
				"GET " + providers.Path + mirrortest.ProviderSource + "/versions",
				"GET " + providers.Path + mirrortest.ProviderSource + "/0.1.0/download/" + prov.OS + "/" + prov.Arch,
				"GET " + sums,
				"GET " + sums + ".sig",
				"GET /" + mirrortest.ProviderHostname + "/" + mirrortest.ProviderSource + "/" + filepath.Base(prov.Zip),
			}
			for _, w := range want {
				if !slices.Contains(paths, w) {
					t.Errorf("tofu init requests = %q, want %q among them", paths, w)
				}
			}
			runTofu(t, tofu, dir, env, "apply", "-auto-approve", "-input=false", "-no-color")
			if got := strings.TrimSpace(runTofu(t, tofu, dir, env, "output", "-raw", "echo")); got != "hello from the mirror" {
				t.Errorf("tofu output -raw echo = %q, want %q", got, "hello from the mirror")
			}
			archives, err := store.Providers.Archives(context.Background(), mirrortest.ProviderHostname, mirrortest.ProviderNamespace, mirrortest.ProviderType, "0.1.0")
			if err != nil {
				t.Fatal(err)
			}
			// A registry's signed SHA256SUMS gives tofu the zh: of every
			// platform; it hashes the one it installed as h1:.
			wantHashes := slices.Clone(archives[providers.Platform(prov.OS, prov.Arch)].Hashes)
			slices.Sort(wantHashes)
			if diff := cmp.Diff(wantHashes, lockHashes(t, filepath.Join(dir, ".terraform.lock.hcl"))); diff != "" {
				t.Errorf(".terraform.lock.hcl hashes mismatch (-served +locked):\n%s", diff)
			}
		})
	}
}

// TestTofuRefusesBadSignature serves the test provider from a registry
// whose SHA256SUMS signature is by another key than the one it names:
// the real tofu refuses to install it.
func TestTofuRefusesBadSignature(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the test provider and runs tofu; skipped with -short")
	}
	tofu := tofutest.Binary(t)
	prov := mirrortest.BuildProvider(t, "0.1.0")
	key, other := testSigningKey(t), testSigningKey(t)
	store := NewStore(t.TempDir())
	addBuilt(t, store, prov)
	forged := mirrortest.RewriteResponses(".sig", func(sig []byte) []byte {
		rec := httptest.NewRecorder()
		NewServer(store, Options{SigningKey: key}).ServeHTTP(rec, httptest.NewRequest("GET",
			providers.Path+mirrortest.ProviderSource+"/0.1.0/"+providers.SHA256SumsName(mirrortest.ProviderType, "0.1.0"), nil))
		doc := rec.Body.Bytes()
		forged, err := other.Sign(doc)
		if err != nil {
			t.Error(err)
		}
		return forged
	})
	srv := mirrortest.Serve(t, forged(NewServer(store, Options{SigningKey: key})))
	host := srv.Host()
	cliConfig := filepath.Join(t.TempDir(), "tofu.rc")
	if err := os.WriteFile(cliConfig, []byte(directCLIConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"TF_CLI_CONFIG_FILE=" + cliConfig, "SSL_CERT_FILE=" + srv.Certs.CAFile, "TF_IN_AUTOMATION=1"}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(registryStackConfig(host)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := tofuCmd(t, tofu, dir, env, "init", "-input=false", "-no-color")
	if err == nil || !strings.Contains(out, "not signed with a valid signing key") {
		t.Errorf("tofu init with a forged signature = %v, want it refused:\n%s", err, out)
	}
}

// testSigningKey is a new signing key.
func testSigningKey(t *testing.T) *providers.SigningKey {
	t.Helper()
	k, err := providers.GenerateSigningKey("strata test registry")
	if err != nil {
		t.Fatalf("providers.GenerateSigningKey() = %v, want nil", err)
	}
	return k
}

// addBuilt stores the built test provider under registry.opentofu.org.
func addBuilt(t *testing.T, store *Store, prov mirrortest.Provider) {
	t.Helper()
	f, err := os.Open(prov.Zip)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := store.Providers.Add(context.Background(), mirrortest.ProviderHostname, mirrortest.ProviderNamespace, mirrortest.ProviderType,
		prov.Version, prov.OS, prov.Arch, f); err != nil {
		t.Fatalf("AddProvider(%q) = %v, want nil", prov.Zip, err)
	}
}
