package mirror

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/registry-mirror/mirrortest"
	"github.com/strata-iac/strata/registry-mirror/modules"
	"github.com/strata-iac/strata/registry-mirror/protocol"
	"github.com/strata-iac/strata/registry-mirror/providers"
)

func TestServeProtocol(t *testing.T) {
	ctx := context.Background()
	s := NewStore(t.TempDir())
	add(t, s, "0.1.0", "linux", "amd64")
	add(t, s, "0.1.0", "darwin", "arm64")
	add(t, s, "0.2.0", "linux", "amd64")
	srv := NewServer(s, Options{UploadToken: "t"})
	archives, err := s.Providers.Archives(ctx, testHost, testNS, testType, "0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	const base = "/registry.opentofu.org/strata-iac/strata/"
	zipName := "terraform-provider-strata_0.1.0_linux_amd64.zip"
	zipData, err := os.ReadFile(filepath.Join(s.Dir(), testHost, testNS, testType, zipName))
	if err != nil {
		t.Fatal(err)
	}
	la, da := archives["linux_amd64"], archives["darwin_arm64"]

	tests := []struct {
		name       string
		method     string
		path       string
		wantStatus int
		wantType   string
		wantBody   string
	}{
		{"index", "GET", base + "index.json", 200, "application/json",
			"{\n  \"versions\": {\n    \"0.1.0\": {},\n    \"0.2.0\": {}\n  }\n}\n"},
		{"version", "GET", base + "0.1.0.json", 200, "application/json",
			`{
  "archives": {
    "darwin_arm64": {
      "url": "` + da.URL + `",
      "hashes": [
        "` + da.Hashes[0] + `",
        "` + da.Hashes[1] + `"
      ]
    },
    "linux_amd64": {
      "url": "` + la.URL + `",
      "hashes": [
        "` + la.Hashes[0] + `",
        "` + la.Hashes[1] + `"
      ]
    }
  }
}
`},
		{"archive", "GET", base + zipName, 200, "application/zip", string(zipData)},
		{"archive head", "HEAD", base + zipName, 200, "application/zip", ""},
		{"index head", "HEAD", base + "index.json", 200, "application/json", ""},
		{"unknown provider", "GET", "/registry.opentofu.org/strata-iac/other/index.json", 404, "", ""},
		{"unknown host", "GET", "/example.com/strata-iac/strata/index.json", 404, "", ""},
		{"unknown version", "GET", base + "0.3.0.json", 404, "", ""},
		{"unknown archive", "GET", base + "terraform-provider-strata_0.1.0_linux_arm64.zip", 404, "", ""},
		{"archive of another type", "GET", base + "terraform-provider-other_0.1.0_linux_amd64.zip", 404, "", ""},
		{"temporary file name", "GET", base + ".terraform-provider-strata_0.1.0_linux_amd64.zip.tmp-1", 404, "", ""},
		{"invalid version", "GET", base + "v0.1.0.json", 404, "", ""},
		{"other file", "GET", base + "README", 404, "", ""},
		{"root", "GET", "/", 404, "", ""},
		{"too short", "GET", "/registry.opentofu.org/strata-iac/index.json", 404, "", ""},
		{"too deep", "GET", base + "0.1.0/linux_amd64/" + zipName, 404, "", ""},
		{"encoded traversal", "GET", "/registry.opentofu.org/..%2F..%2F..%2Fetc/strata/index.json", 404, "", ""},
		{"encoded traversal in file", "GET", base + "..%2F..%2F..%2F..%2Fetc%2Fpasswd", 404, "", ""},
		{"dot dot segment", "GET", "/registry.opentofu.org/../../etc/passwd", 404, "", ""},
		{"post", "POST", base + "index.json", 405, "", ""},
		{"delete", "DELETE", base + zipName, 405, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, httptest.NewRequest(tt.method, tt.path, nil))
			got := rec.Result()
			// ServeMux answers a path with dot segments with a redirect to
			// the clean path; following it is another 404.
			if got.StatusCode == http.StatusMovedPermanently || got.StatusCode == http.StatusTemporaryRedirect {
				loc := got.Header.Get("Location")
				rec = httptest.NewRecorder()
				srv.ServeHTTP(rec, httptest.NewRequest(tt.method, loc, nil))
				got = rec.Result()
			}
			body, _ := io.ReadAll(got.Body)
			if got.StatusCode != tt.wantStatus {
				t.Fatalf("%s %s = %d %q, want %d", tt.method, tt.path, got.StatusCode, body, tt.wantStatus)
			}
			if tt.wantType != "" && got.Header.Get("Content-Type") != tt.wantType {
				t.Errorf("%s %s Content-Type = %q, want %q", tt.method, tt.path, got.Header.Get("Content-Type"), tt.wantType)
			}
			switch {
			case tt.wantStatus != 200 || tt.method != "GET":
			case tt.wantType == "application/json":
				if diff := cmp.Diff(tt.wantBody, string(body)); diff != "" {
					t.Errorf("%s %s body mismatch (-want +got):\n%s", tt.method, tt.path, diff)
				}
			case !bytes.Equal(body, []byte(tt.wantBody)):
				t.Errorf("%s %s body = %d bytes, want the %d of the archive", tt.method, tt.path, len(body), len(tt.wantBody))
			}
		})
	}
}

// TestServeStoreErrors checks that a store failure other than a missing
// archive is a 500, not a 404 that tofu would read as "no such provider".
func TestServeStoreErrors(t *testing.T) {
	dir := t.TempDir()
	// A file where the provider's directory should be cannot be read as
	// one.
	if err := os.MkdirAll(filepath.Join(dir, testHost, testNS), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, testHost, testNS, testType), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := NewServer(NewStore(dir), Options{})
	for _, file := range []string{"index.json", "0.1.0.json"} {
		path := "/registry.opentofu.org/strata-iac/strata/" + file
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != http.StatusInternalServerError {
			t.Errorf("GET %s of an unreadable directory = %d, want 500", path, rec.Code)
		}
	}
}

// TestListenAndServeTLS serves over https with certificate files and
// stops when the context is done.
func TestListenAndServeTLS(t *testing.T) {
	certs := mirrortest.TLS(t)
	s := NewStore(t.TempDir())
	add(t, s, "0.1.0", "linux", "amd64")
	srv := NewServer(s, Options{})

	addr := testkit.FreeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.ListenAndServeTLS(ctx, addr, certs.CertFile, certs.KeyFile) }()

	url := "https://" + addr + "/registry.opentofu.org/strata-iac/strata/index.json"
	var (
		resp *http.Response
		err  error
	)
	for deadline := time.Now().Add(5 * time.Second); ; {
		resp, err = certs.Client().Get(url)
		if err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("GET %s = %v, want 200", url, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"0.1.0"`) {
		t.Errorf("GET %s = %d %q, want 200 with version 0.1.0", url, resp.StatusCode, body)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ListenAndServeTLS() after cancel = %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ListenAndServeTLS() still running 10s after cancel")
	}
	if _, err := certs.Client().Get(url); err == nil {
		t.Errorf("GET %s after stop = nil error, want refused", url)
	}
}

func TestListenAndServeTLSErrors(t *testing.T) {
	certs := mirrortest.TLS(t)
	srv := NewServer(NewStore(t.TempDir()), Options{})
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	tests := []struct {
		name, addr, cert, key, want string
	}{
		{"missing certificate", "127.0.0.1:0", filepath.Join(t.TempDir(), "none.pem"), certs.KeyFile, "load certificate"},
		{"key is not the certificate's", "127.0.0.1:0", certs.CAFile, certs.KeyFile, "load certificate"},
		{"address in use", busy.Addr().String(), certs.CertFile, certs.KeyFile, "address already in use"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			err := srv.ListenAndServeTLS(ctx, tt.addr, tt.cert, tt.key)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "serve mirror on ") {
				t.Errorf("ListenAndServeTLS(%q, %q) = %v, want an error about %q", tt.addr, tt.cert, err, tt.want)
			}
			if errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("ListenAndServeTLS(%q) ran until the deadline, want an immediate error", tt.addr)
			}
		})
	}
}

func TestOptionsCheck(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		wantErr error
	}{
		{"none", Options{}, nil},
		{"upstream", Options{Upstream: "registry.opentofu.org"}, nil},
		{"upstream with a port", Options{Upstream: "127.0.0.1:8443", UpstreamHostname: "registry.terraform.io"}, nil},
		{"registry hostname with a port", Options{RegistryHostname: "mirror.internal:8443"}, nil},
		{"upstream URL", Options{Upstream: "https://registry.opentofu.org"}, protocol.ErrInvalid},
		{"upstream path", Options{Upstream: "registry.opentofu.org/v1"}, protocol.ErrInvalid},
		{"upstream bad port", Options{Upstream: "registry.opentofu.org:http2x"}, protocol.ErrInvalid},
		{"bad upstream hostname", Options{Upstream: "x.org", UpstreamHostname: "not a host"}, protocol.ErrInvalid},
		{"bad registry hostname", Options{RegistryHostname: "-x-"}, protocol.ErrInvalid},
		{"upstream settings without an upstream", Options{UpstreamHostname: "registry.terraform.io"}, protocol.ErrInvalid},
		{"negative TTL", Options{Upstream: "x.org", UpstreamTTL: -time.Second}, protocol.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.opts.Check(); !errors.Is(err, tt.wantErr) {
				t.Errorf("Options{%s}.Check() = %v, want %v", tt.name, err, tt.wantErr)
			}
		})
	}
}

// TestDiscovery checks that service discovery names the module registry
// always and the provider registry only with a signing key.
func TestDiscovery(t *testing.T) {
	key, err := providers.GenerateSigningKey("strata test registry")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		opts Options
		want map[string]string
	}{
		{"no signing key", Options{}, map[string]string{"modules.v1": modules.Path}},
		{"signing key", Options{SigningKey: key}, map[string]string{"modules.v1": modules.Path, "providers.v1": providers.Path}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			NewServer(NewStore(t.TempDir()), tt.opts).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, protocol.DiscoveryPath, nil))
			var got map[string]string
			if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || rec.Code != http.StatusOK {
				t.Fatalf("GET %s = %d %q (%v), want 200 and JSON", protocol.DiscoveryPath, rec.Code, rec.Body, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("GET %s (-want +got):\n%s", protocol.DiscoveryPath, diff)
			}
		})
	}
}
