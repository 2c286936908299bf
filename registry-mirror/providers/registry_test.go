package providers

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/registry-mirror/mirrortest"
)

func TestServeRegistryProtocol(t *testing.T) {
	ctx := context.Background()
	s, _ := newDirStore(t)
	add(t, s, "0.1.0", "linux", "amd64")
	add(t, s, "0.1.0", "darwin", "arm64")
	add(t, s, "0.10.0", "linux", "amd64")
	add(t, s, "0.2.0", "linux", "amd64")
	// Providers under another hostname are not the registry's.
	if err := s.Add(ctx, "mirror.internal", testNS, "other", "1.0.0", "linux", "amd64", bytes.NewReader(providerZipFor(t, "other"))); err != nil {
		t.Fatal(err)
	}
	key := testSigningKey(t)
	srv := testServer(s, Options{SigningKey: key})
	archives, err := s.Archives(ctx, testHost, testNS, testType, "0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	zh := func(platform string) string { return strings.TrimPrefix(archives[platform].Hashes[1], "zh:") }
	const v1 = Path + testNS + "/" + testType + "/"
	sumsName := SHA256SumsName(testType, "0.1.0")
	wantSums := zh("darwin_arm64") + "  terraform-provider-strata_0.1.0_darwin_arm64.zip\n" +
		zh("linux_amd64") + "  terraform-provider-strata_0.1.0_linux_amd64.zip\n"

	t.Run("discovery", func(t *testing.T) {
		var got map[string]string
		get(t, srv, "/.well-known/terraform.json", http.StatusOK, &got)
		want := map[string]string{"providers.v1": Path}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("discovery mismatch (-want +got):\n%s", diff)
		}
	})

	t.Run("versions", func(t *testing.T) {
		var got registryVersions
		get(t, srv, v1+"versions", http.StatusOK, &got)
		want := registryVersions{Versions: []registryVersion{
			{Version: "0.1.0", Protocols: []string{}, Platforms: []registryPlatform{{"darwin", "arm64"}, {"linux", "amd64"}}},
			{Version: "0.2.0", Protocols: []string{}, Platforms: []registryPlatform{{"linux", "amd64"}}},
			{Version: "0.10.0", Protocols: []string{}, Platforms: []registryPlatform{{"linux", "amd64"}}},
		}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("GET %sversions mismatch (-want +got):\n%s", v1, diff)
		}
	})

	t.Run("download", func(t *testing.T) {
		var got registryDownload
		get(t, srv, v1+"0.1.0/download/linux/amd64", http.StatusOK, &got)
		want := registryDownload{
			Protocols:           []string{},
			OS:                  "linux",
			Arch:                "amd64",
			Filename:            "terraform-provider-strata_0.1.0_linux_amd64.zip",
			DownloadURL:         "/registry.opentofu.org/strata-iac/strata/terraform-provider-strata_0.1.0_linux_amd64.zip",
			SHASumsURL:          v1 + "0.1.0/" + sumsName,
			SHASumsSignatureURL: v1 + "0.1.0/" + sumsName + ".sig",
			SHASum:              zh("linux_amd64"),
			SigningKeys:         registrySigningKeys{GPGPublicKeys: []registryGPGKey{{KeyID: key.KeyID(), ASCIIArmor: key.PublicKey()}}},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("GET %s0.1.0/download/linux/amd64 mismatch (-want +got):\n%s", v1, diff)
		}
		// The download URL is the network mirror's path of the archive.
		rec := serve(srv, "GET", got.DownloadURL)
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/zip" {
			t.Errorf("GET %s = %d %q, want 200 application/zip", got.DownloadURL, rec.Code, rec.Header().Get("Content-Type"))
		}
	})

	t.Run("SHA256SUMS and its signature", func(t *testing.T) {
		rec := serve(srv, "GET", v1+"0.1.0/"+sumsName)
		if rec.Code != http.StatusOK || rec.Body.String() != wantSums {
			t.Errorf("GET SHA256SUMS = %d %q, want 200 %q", rec.Code, rec.Body, wantSums)
		}
		sig := serve(srv, "GET", v1+"0.1.0/"+sumsName+".sig")
		if sig.Code != http.StatusOK {
			t.Fatalf("GET SHA256SUMS.sig = %d, want 200", sig.Code)
		}
		if id, err := key.KeyRing().Verify(rec.Body.Bytes(), sig.Body.Bytes()); err != nil || id != key.KeyID() {
			t.Errorf("Verify(SHA256SUMS, SHA256SUMS.sig) = %q, %v, want %q, nil", id, err, key.KeyID())
		}
	})

	t.Run("not found", func(t *testing.T) {
		for _, path := range []string{
			Path + testNS + "/nothing/versions",
			Path + testNS + "/other/versions", // another hostname's
			Path + "Bad_NS/" + testType + "/versions",
			v1 + "9.9.9/download/linux/amd64",
			v1 + "0.2.0/download/darwin/arm64",
			v1 + "latest/download/linux/amd64",
			v1 + "0.1.0/download/linux/AMD64",
			v1 + "9.9.9/" + SHA256SumsName(testType, "9.9.9"),
			v1 + "0.1.0/" + SHA256SumsName(testType, "0.2.0"),
			v1 + "0.1.0/SHA256SUMS",
		} {
			if rec := serve(srv, "GET", path); rec.Code != http.StatusNotFound {
				t.Errorf("GET %s = %d, want 404", path, rec.Code)
			}
		}
	})

	t.Run("another registry hostname", func(t *testing.T) {
		srv := testServer(s, Options{SigningKey: key, RegistryHostname: "mirror.internal"})
		var got registryVersions
		get(t, srv, Path+testNS+"/other/versions", http.StatusOK, &got)
		if len(got.Versions) != 1 || got.Versions[0].Version != "1.0.0" {
			t.Errorf("GET versions of mirror.internal/%s/other = %+v, want 1.0.0", testNS, got)
		}
	})

	t.Run("without a signing key there is no provider registry", func(t *testing.T) {
		srv := testServer(s, Options{})
		var got map[string]string
		get(t, srv, "/.well-known/terraform.json", http.StatusOK, &got)
		if _, ok := got["providers.v1"]; ok {
			t.Errorf("discovery = %v, want no providers.v1", got)
		}
		for _, path := range []string{v1 + "versions", v1 + "0.1.0/download/linux/amd64", v1 + "0.1.0/" + sumsName} {
			if rec := serve(srv, "GET", path); rec.Code != http.StatusNotFound {
				t.Errorf("GET %s = %d, want 404", path, rec.Code)
			}
		}
	})
}

// providerZipFor is a minimal provider package for typ.
func providerZipFor(t *testing.T, typ string) []byte {
	t.Helper()
	return mirrortest.Zip(t, mirrortest.File{Name: "terraform-provider-" + typ, Mode: 0o755, Body: typ})
}

// serve answers one request.
func serve(h http.Handler, method, path string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
	return rec
}

// get answers a GET, checks its status, and decodes its JSON into v.
func get(t *testing.T, h http.Handler, path string, wantStatus int, v any) {
	t.Helper()
	rec := serve(h, "GET", path)
	if rec.Code != wantStatus {
		t.Fatalf("GET %s = %d %q, want %d", path, rec.Code, rec.Body, wantStatus)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("GET %s Content-Type = %q, want application/json", path, ct)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), v); err != nil {
		t.Fatalf("GET %s = %q: %v", path, rec.Body, err)
	}
}
