package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/registry-mirror/mirror"
	"github.com/strata-iac/strata/registry-mirror/mirrortest"
	"github.com/strata-iac/strata/registry-mirror/providers"
)

func TestMirrorServe(t *testing.T) {
	certs := mirrortest.TLS(t)
	dir := t.TempDir()
	src := t.TempDir()
	published := mirrorZip(t, src, "terraform-provider-strata_0.1.0_linux_amd64.zip", "0.1.0")
	if _, errOut, code := strata(t, "mirror", "add", published, "--dir", dir, "--provider", "strata-iac/strata"); code != 0 {
		t.Fatalf("strata mirror add exit code = %d\n%s", code, errOut)
	}
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	emptyToken := filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(emptyToken, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	t.Run("usage errors", func(t *testing.T) {
		tls := []string{"--tls-cert", certs.CertFile, "--tls-key", certs.KeyFile}
		tests := []struct {
			name    string
			args    []string
			want    int
			wantErr string
		}{
			{"no dir", append([]string{"mirror", "serve"}, tls...), 2, "--dir or --s3-bucket, --tls-cert and --tls-key are required"},
			{"no key", []string{"mirror", "serve", "--dir", dir, "--tls-cert", certs.CertFile}, 2, "--dir or --s3-bucket, --tls-cert and --tls-key are required"},
			{"dir and bucket", append([]string{"mirror", "serve", "--dir", dir, "--s3-bucket", "b"}, tls...), 2, "give --dir or --s3-bucket, not both"},
			{"s3 endpoint without bucket", append([]string{"mirror", "serve", "--dir", dir, "--s3-endpoint", "http://x"}, tls...), 2, "--s3-endpoint needs --s3-bucket"},
			{"dir is a file", append([]string{"mirror", "serve", "--dir", tokenFile}, tls...), 2, "is not a directory"},
			{"empty token", append([]string{"mirror", "serve", "--dir", dir, "--upload-token-file", emptyToken}, tls...), 2, "is empty"},
			{"bad certificate", []string{"mirror", "serve", "--dir", dir, "--addr", "127.0.0.1:0", "--tls-cert", certs.KeyFile, "--tls-key", certs.KeyFile}, 1, "load certificate"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, errOut, code := strata(t, tt.args...)
				if code != tt.want || !strings.Contains(errOut, tt.wantErr) {
					t.Errorf("strata %q = %d %q, want %d with %q", tt.args, code, errOut, tt.want, tt.wantErr)
				}
			})
		}
	})

	// Serve on a free port until cancelled.
	addr := testkit.FreeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out testkit.Buffer
	cmd := newRootCommand(&out, &out)
	cmd.SetArgs([]string{"mirror", "serve", "--dir", dir, "--addr", addr,
		"--tls-cert", certs.CertFile, "--tls-key", certs.KeyFile, "--upload-token-file", tokenFile})
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	base := "https://" + addr + "/registry.opentofu.org/strata-iac/strata/"
	waitServing(t, &out)
	if want := regexp.MustCompile(`on https://127\.0\.0\.1:\d+/\nuploads: on`); !want.MatchString(out.String()) {
		t.Errorf("strata mirror serve printed %q, want %s", out.String(), want)
	}
	client := certs.Client()

	requests := []struct {
		name       string
		method     string
		path       string
		token      string
		body       []byte
		wantStatus int
		wantBody   string
	}{
		{"index", "GET", "index.json", "", nil, 200, `"0.1.0": {}`},
		{"version", "GET", "0.1.0.json", "", nil, 200, `"url": "terraform-provider-strata_0.1.0_linux_amd64.zip"`},
		{"upload without token", "PUT", "terraform-provider-strata_0.2.0_linux_amd64.zip", "", zipBytes(t, "0.2.0"), 401, "bearer token"},
		{"upload", "PUT", "terraform-provider-strata_0.2.0_linux_amd64.zip", "s3cret", zipBytes(t, "0.2.0"), 201, `"hashes":["h1:`},
		{"index after upload", "GET", "index.json", "", nil, 200, `"0.2.0": {}`},
		{"download the upload", "GET", "terraform-provider-strata_0.2.0_linux_amd64.zip", "", nil, 200, "PK"},
		{"discovery", "GET", "/.well-known/terraform.json", "", nil, 200, `"modules.v1": "/v1/modules/"`},
		{"module upload", "PUT", "/v1/modules/strata/echo/null/1.0.0.tar.gz", "s3cret", mirrortest.Module(t, "1.0.0"), 201, `"version":"1.0.0"`},
		{"module versions", "GET", "/v1/modules/strata/echo/null/versions", "", nil, 200, `"version": "1.0.0"`},
	}
	for _, tt := range requests {
		t.Run(tt.name, func(t *testing.T) {
			url := base + tt.path
			if strings.HasPrefix(tt.path, "/") {
				url = "https://" + addr + tt.path
			}
			req, err := http.NewRequest(tt.method, url, bytes.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if tt.token != "" {
				req.Header.Set("Authorization", "Bearer "+tt.token)
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatalf("%s %s = %v", tt.method, tt.path, err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.wantStatus || !strings.Contains(string(body), tt.wantBody) {
				t.Errorf("%s %s = %d %q, want %d containing %q", tt.method, tt.path, resp.StatusCode, body, tt.wantStatus, tt.wantBody)
			}
		})
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("strata mirror serve after interrupt = %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("strata mirror serve still running 10s after interrupt")
	}
}

// waitServing waits for strata mirror serve to say it is serving.
func waitServing(t *testing.T, out *testkit.Buffer) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "serving the provider mirror and module registry") {
		if time.Now().After(deadline) {
			t.Fatalf("strata mirror serve printed %q, want it serving", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestMirrorServeUpstream serves a pull-through cache that is a provider
// registry too, in front of an upstream registry with its own CA and key.
func TestMirrorServeUpstream(t *testing.T) {
	certs := mirrortest.TLS(t)
	tls := []string{"--tls-cert", certs.CertFile, "--tls-key", certs.KeyFile}
	dir := t.TempDir()
	upstreamKey, err := providers.GenerateSigningKey("upstream")
	if err != nil {
		t.Fatal(err)
	}
	upstreamStore := mirror.NewStore(t.TempDir())
	if err := upstreamStore.Providers.Add(context.Background(), "registry.opentofu.org", "strata-iac", "strata", "0.1.0", "linux", "amd64",
		bytes.NewReader(zipBytes(t, "0.1.0"))); err != nil {
		t.Fatal(err)
	}
	upstream := mirrortest.Serve(t, mirror.NewServer(upstreamStore, mirror.Options{SigningKey: upstreamKey}))
	upstreamHost := strings.TrimSuffix(strings.TrimPrefix(upstream.URL, "https://"), "/")
	write := func(name, body string) string {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	upstreamPub := write("upstream.pub", upstreamKey.PublicKey())
	keyFile := filepath.Join(t.TempDir(), "key.asc")
	checkRun(t, []string{"mirror", "signing-key", keyFile}, 0, nil, nil)
	notPEM := write("ca.pem", "not a certificate")

	t.Run("usage errors", func(t *testing.T) {
		serve := func(args ...string) []string {
			return append(append([]string{"mirror", "serve", "--dir", dir, "--addr", "127.0.0.1:0"}, tls...), args...)
		}
		runCases(t, []cliCase{
			{"upstream URL", serve("--upstream", "https://registry.opentofu.org"), 2, nil, []string{`invalid upstream "https://registry.opentofu.org"`}},
			{"upstream key without upstream", serve("--upstream-key", upstreamPub), 2, nil, []string{"--upstream-key needs --upstream"}},
			{"upstream hostname without upstream", serve("--upstream-hostname", "registry.terraform.io"), 2, nil, []string{"--upstream-hostname needs --upstream"}},
			{"bad upstream hostname", serve("--upstream", upstreamHost, "--upstream-hostname", "not a host"), 2, nil, []string{"upstream hostname"}},
			{"upstream CA without a certificate", serve("--upstream", upstreamHost, "--upstream-ca", notPEM), 2, nil, []string{"no PEM certificate"}},
			{"upstream key is not a key", serve("--upstream", upstreamHost, "--upstream-key", notPEM), 2, nil, []string{"read upstream key"}},
			{"missing signing key", serve("--signing-key", filepath.Join(dir, "missing.asc")), 2, nil, []string{"read signing key"}},
			{"public key as signing key", serve("--signing-key", upstreamPub), 2, nil, []string{"is a public key"}},
			{"registry hostname without signing key", serve("--registry-hostname", "mirror.internal"), 2, nil, []string{"--registry-hostname needs --signing-key"}},
			{"help explains", []string{"mirror", "serve", "--help"}, 0, []string{"Pull-through cache (--upstream)", "--upstream-hostname", "Provider registry (--signing-key)", "/v1/providers/<namespace>/<type>/versions"}, nil},
		})
	})

	addr := testkit.FreeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out testkit.Buffer
	cmd := newRootCommand(&out, &out)
	cmd.SetArgs(append([]string{"mirror", "serve", "--dir", dir, "--addr", addr, "--signing-key", keyFile,
		"--upstream", upstreamHost, "--upstream-ca", upstream.Certs.CAFile, "--upstream-key", upstreamPub}, tls...))
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	waitServing(t, &out)
	for _, want := range []string{"provider registry: on, registry.opentofu.org providers, SHA256SUMS signed by key ",
		"pull-through: registry.opentofu.org providers from https://" + upstreamHost + "/"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("strata mirror serve printed %q, want %q", out.String(), want)
		}
	}
	client := certs.Client()
	zipName := "terraform-provider-strata_0.1.0_linux_amd64.zip"
	requests := []struct {
		name       string
		path       string
		wantStatus int
		wantBody   string
	}{
		{"index lists the upstream's versions", "/registry.opentofu.org/strata-iac/strata/index.json", 200, `"0.1.0": {}`},
		{"archive pulled through", "/registry.opentofu.org/strata-iac/strata/" + zipName, 200, "PK"},
		{"discovery names the provider registry", "/.well-known/terraform.json", 200, `"providers.v1": "/v1/providers/"`},
		{"registry versions", "/v1/providers/strata-iac/strata/versions", 200, `"version": "0.1.0"`},
		{"another hostname never goes upstream", "/registry.terraform.io/strata-iac/strata/index.json", 404, ""},
	}
	for _, tt := range requests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := client.Get("https://" + addr + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.wantStatus || !strings.Contains(string(body), tt.wantBody) {
				t.Errorf("GET %s = %d %q, want %d containing %q", tt.path, resp.StatusCode, body, tt.wantStatus, tt.wantBody)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "registry.opentofu.org/strata-iac/strata", zipName)); err != nil {
		t.Errorf("Stat(pulled archive) = %v, want it stored in --dir", err)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("strata mirror serve after interrupt = %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("strata mirror serve still running 10s after interrupt")
	}
}
