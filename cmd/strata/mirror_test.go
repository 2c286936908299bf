package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/contracts/awstest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/registry-mirror/mirror"
	"github.com/strata-iac/strata/registry-mirror/mirrortest"
	"github.com/strata-iac/strata/registry-mirror/providers"
)

// mirrorZip writes a minimal package of strata-iac/strata to dir/name.
func mirrorZip(t *testing.T, dir, name, body string) string {
	t.Helper()
	return mirrortest.ZipFile(t, dir, name, mirrortest.File{Name: "terraform-provider-strata_v" + body, Mode: 0o755, Body: body})
}

func TestMirrorAdd(t *testing.T) {
	src := t.TempDir()
	published := mirrorZip(t, src, "terraform-provider-strata_0.1.0_linux_amd64.zip", "0.1.0")
	plain := mirrorZip(t, src, "strata.zip", "0.2.0")
	other := mirrorZip(t, src, "other.zip", "other")
	notZip := filepath.Join(src, "not.zip")
	if err := os.WriteFile(notZip, []byte("nope"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "mirror")
	prov := []string{"--dir", dir, "--provider", "registry.opentofu.org/strata-iac/strata"}

	tests := []cliCase{
		{"from the published name", append([]string{"mirror", "add", published}, prov...), 0,
			[]string{"added registry.opentofu.org/strata-iac/strata 0.1.0 linux_amd64",
				filepath.Join(dir, "registry.opentofu.org/strata-iac/strata/terraform-provider-strata_0.1.0_linux_amd64.zip"),
				"  h1:", "  zh:"}, nil},
		{"same again", append([]string{"mirror", "add", published}, prov...), 0, []string{"added "}, nil},
		{"named explicitly, short address", []string{"mirror", "add", plain, "--dir", dir, "--provider", "strata-iac/strata",
			"--version", "0.2.0", "--os", "darwin", "--arch", "arm64"}, 0,
			[]string{"added registry.opentofu.org/strata-iac/strata 0.2.0 darwin_arm64"}, nil},
		{"different bytes for a published version", append([]string{"mirror", "add", other, "--version", "0.1.0", "--os", "linux", "--arch", "amd64"}, prov...), 1,
			nil, []string{"already exists with different content"}},
		{"version not in the name", append([]string{"mirror", "add", plain}, prov...), 2,
			nil, []string{"--version is required", "strata.zip is not named terraform-provider-strata_<version>_<os>_<arch>.zip"}},
		{"not a zip", append([]string{"mirror", "add", notZip, "--version", "0.3.0", "--os", "linux", "--arch", "amd64"}, prov...), 1,
			nil, []string{"add provider registry.opentofu.org/strata-iac/strata 0.3.0 linux_amd64: invalid archive"}},
		{"bad version", append([]string{"mirror", "add", plain, "--version", "v1", "--os", "linux", "--arch", "amd64"}, prov...), 1,
			nil, []string{`invalid version "v1"`}},
		{"bad address", []string{"mirror", "add", published, "--dir", dir, "--provider", "strata"}, 2,
			nil, []string{`parse provider "strata"`}},
		{"missing zip file", append([]string{"mirror", "add", filepath.Join(src, "terraform-provider-strata_9.0.0_linux_amd64.zip")}, prov...), 1,
			nil, []string{"no such file"}},
		{"no dir", []string{"mirror", "add", published, "--provider", "strata-iac/strata"}, 2,
			nil, []string{"--dir or --s3-bucket, and --provider are required"}},
		{"dir and bucket", append([]string{"mirror", "add", published, "--s3-bucket", "b"}, prov...), 2,
			nil, []string{"give --dir or --s3-bucket, not both"}},
		{"s3 flag without bucket", append([]string{"mirror", "add", published, "--s3-prefix", "p"}, prov...), 2,
			nil, []string{"--s3-prefix needs --s3-bucket"}},
		{"unknown output", append([]string{"mirror", "add", published, "-o", "yaml"}, prov...), 2,
			nil, []string{`unknown output format "yaml"`}},
		{"help shows the CLI config", []string{"mirror", "--help"}, 0,
			[]string{"provider_installation {", "network_mirror {", `url = "https://mirror.internal:8443/"`, "plugin_cache_dir", "SSL_CERT_FILE",
				`source  = "mirror.internal:8443/acme/network/aws"`, "pull-through cache", "--signing-key"}, nil},
	}
	runCases(t, tests)

	t.Run("json", func(t *testing.T) {
		args := append([]string{"mirror", "add", published, "-o", "json"}, prov...)
		out, errOut, code := strata(t, args...)
		if code != 0 {
			t.Fatalf("strata %q exit code = %d\nstderr:\n%s", args, code, errOut)
		}
		var got mirrorAddResult
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("strata %q = %v, want JSON:\n%s", args, err, out)
		}
		want, err := providers.HashArchive(context.Background(), published)
		if err != nil {
			t.Fatal(err)
		}
		if got.Provider != "registry.opentofu.org/strata-iac/strata" || got.Version != "0.1.0" || got.Platform != "linux_amd64" ||
			len(got.Hashes) != 2 || got.Hashes[0] != want.H1 || got.Hashes[1] != want.ZH {
			t.Errorf("strata %q = %+v, want 0.1.0 linux_amd64 with hashes %v", args, got, want.List())
		}
	})
}

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

func zipBytes(t *testing.T, body string) []byte {
	t.Helper()
	return mirrortest.Zip(t, mirrortest.File{Name: "terraform-provider-strata_v" + body, Mode: 0o755, Body: body})
}

func TestMirrorAddModule(t *testing.T) {
	src := t.TempDir()
	archive := filepath.Join(src, "echo-1.0.0.tar.gz")
	if err := os.WriteFile(archive, mirrortest.Module(t, "1.0.0"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(src, "other.tar.gz")
	if err := os.WriteFile(other, mirrortest.Module(t, "other"), 0o644); err != nil {
		t.Fatal(err)
	}
	moduleDir := filepath.Join(src, "echo")
	for name, body := range map[string]string{
		"main.tf":               `output "version" { value = "1.1.0" }`,
		"modules/inner/main.tf": "",
		".terraform/junk":       "left out",
	} {
		path := filepath.Join(moduleDir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	empty := t.TempDir()
	dir := filepath.Join(t.TempDir(), "mirror")
	mod := []string{"--dir", dir, "--module", "strata/echo/null"}
	stored := func(v string) string { return filepath.Join(dir, "modules/strata/echo/null", v+".tar.gz") }

	tests := []cliCase{
		{"an archive", append([]string{"mirror", "add-module", archive, "--version", "1.0.0"}, mod...), 0,
			[]string{"added module strata/echo/null 1.0.0", stored("1.0.0"), `source  = "<mirror host:port>/strata/echo/null"`}, nil},
		{"same again", append([]string{"mirror", "add-module", archive, "--version", "1.0.0"}, mod...), 0, []string{"added module"}, nil},
		{"a directory, packed", append([]string{"mirror", "add-module", moduleDir, "--version", "1.1.0"}, mod...), 0,
			[]string{"added module strata/echo/null 1.1.0", stored("1.1.0")}, nil},
		{"the directory again", append([]string{"mirror", "add-module", moduleDir, "--version", "1.1.0"}, mod...), 0, []string{"added module"}, nil},
		{"different bytes for a published version", append([]string{"mirror", "add-module", other, "--version", "1.0.0"}, mod...), 1,
			nil, []string{"add module strata/echo/null 1.0.0: archive 1.0.0.tar.gz: already exists with different content"}},
		{"a directory without a module", append([]string{"mirror", "add-module", empty, "--version", "2.0.0"}, mod...), 1,
			nil, []string{"no .tf or .tofu file at its top level"}},
		{"bad version", append([]string{"mirror", "add-module", archive, "--version", "v2"}, mod...), 1,
			nil, []string{`invalid version "v2"`}},
		{"no version", append([]string{"mirror", "add-module", archive}, mod...), 2,
			nil, []string{"--dir or --s3-bucket, --module and --version are required"}},
		{"bad module", []string{"mirror", "add-module", archive, "--dir", dir, "--module", "strata/echo", "--version", "1.0.0"}, 2,
			nil, []string{`parse module "strata/echo"`}},
		{"missing source", append([]string{"mirror", "add-module", filepath.Join(src, "none.tar.gz"), "--version", "1.0.0"}, mod...), 1,
			nil, []string{"no such file"}},
		{"help shows the source line", []string{"mirror", "add-module", "--help"}, 0,
			[]string{`source  = "mirror.internal:8443/acme/network/aws"`, `version = "~> 1.2"`, "SSL_CERT_FILE"}, nil},
	}
	runCases(t, tests)

	t.Run("json", func(t *testing.T) {
		args := append([]string{"mirror", "add-module", archive, "--version", "1.0.0", "-o", "json"}, mod...)
		out, errOut, code := strata(t, args...)
		if code != 0 {
			t.Fatalf("strata %q exit code = %d\nstderr:\n%s", args, code, errOut)
		}
		var got mirrorAddModuleResult
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("strata %q = %v, want JSON:\n%s", args, err, out)
		}
		want := mirrorAddModuleResult{Module: "strata/echo/null", Version: "1.0.0", Path: stored("1.0.0")}
		if got != want {
			t.Errorf("strata %q = %+v, want %+v", args, got, want)
		}
	})

	versions, err := mirror.NewStore(dir).Modules.Versions(context.Background(), "strata", "echo", "null")
	if err != nil || strings.Join(versions, " ") != "1.0.0 1.1.0" {
		t.Errorf("ModuleVersions() after the adds = %v, %v, want 1.0.0 1.1.0", versions, err)
	}
}

// TestMirrorS3 adds a provider and a module to a bucket of a real
// S3-compatible server and serves them from it.
func TestMirrorS3(t *testing.T) {
	endpoint, access, secret := awstest.Versitygw(t)
	awstest.Env(t, access, secret)
	awstest.CreateBucket(t, endpoint, "mirror")
	s3 := []string{"--s3-bucket", "mirror", "--s3-prefix", "tofu/", "--s3-endpoint", endpoint}
	src := t.TempDir()
	published := mirrorZip(t, src, "terraform-provider-strata_0.1.0_linux_amd64.zip", "0.1.0")
	archive := filepath.Join(src, "echo.tar.gz")
	if err := os.WriteFile(archive, mirrortest.Module(t, "1.0.0"), 0o644); err != nil {
		t.Fatal(err)
	}

	adds := []struct {
		name    string
		args    []string
		wantOut string
	}{
		{"add", append([]string{"mirror", "add", published, "--provider", "strata-iac/strata"}, s3...),
			"s3://mirror/tofu/registry.opentofu.org/strata-iac/strata/terraform-provider-strata_0.1.0_linux_amd64.zip"},
		{"add-module", append([]string{"mirror", "add-module", archive, "--module", "strata/echo/null", "--version", "1.0.0"}, s3...),
			"s3://mirror/tofu/modules/strata/echo/null/1.0.0.tar.gz"},
	}
	for _, tt := range adds {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := strata(t, tt.args...)
			if code != 0 || !strings.Contains(out, tt.wantOut) {
				t.Errorf("strata %q = %d %q %q, want 0 with %q", tt.args, code, out, errOut, tt.wantOut)
			}
		})
	}
	if !awstest.ObjectExists(t, endpoint, "mirror", "tofu/registry.opentofu.org/strata-iac/strata/terraform-provider-strata_0.1.0_linux_amd64.zip.hashes") {
		t.Errorf("strata mirror add wrote no hashes object beside the archive")
	}

	t.Run("a missing bucket fails before serving", func(t *testing.T) {
		certs := mirrortest.TLS(t)
		args := []string{"mirror", "serve", "--s3-bucket", "missing", "--s3-endpoint", endpoint, "--addr", "127.0.0.1:0",
			"--tls-cert", certs.CertFile, "--tls-key", certs.KeyFile}
		out, errOut, code := strata(t, args...)
		if code != 1 || !strings.Contains(errOut, "mirror serve: check mirror store s3://missing/") || strings.Contains(out, "serving") {
			t.Errorf("strata %q = %d %q %q, want 1 with a check error", args, code, out, errOut)
		}
	})

	certs := mirrortest.TLS(t)
	addr := testkit.FreeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out testkit.Buffer
	cmd := newRootCommand(&out, &out)
	cmd.SetArgs(append([]string{"mirror", "serve", "--addr", addr, "--tls-cert", certs.CertFile, "--tls-key", certs.KeyFile}, s3...))
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	waitServing(t, &out)
	if want := "serving the provider mirror and module registry s3://mirror/tofu/ on https://" + addr + "/"; !strings.Contains(out.String(), want) {
		t.Errorf("strata mirror serve printed %q, want %q", out.String(), want)
	}
	for path, want := range map[string]string{
		"/registry.opentofu.org/strata-iac/strata/index.json":                                      `"0.1.0": {}`,
		"/registry.opentofu.org/strata-iac/strata/terraform-provider-strata_0.1.0_linux_amd64.zip": "PK",
		"/v1/modules/strata/echo/null/versions":                                                    `"version": "1.0.0"`,
	} {
		resp, err := certs.Client().Get("https://" + addr + path)
		if err != nil {
			t.Fatalf("GET %s = %v", path, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), want) {
			t.Errorf("GET %s = %d %q, want 200 containing %q", path, resp.StatusCode, body, want)
		}
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

func TestMirrorSigningKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "key.asc")
	out, errOut := checkRun(t, []string{"mirror", "signing-key", path, "--name", "acme registry"}, 0,
		[]string{"-----BEGIN PGP PUBLIC KEY BLOCK-----"}, []string{"wrote the private key", path})
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("signing key mode = %v, want 0600", info.Mode().Perm())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	key, err := providers.ParseSigningKey(data)
	if err != nil {
		t.Fatalf("ParseSigningKey(%s) = %v, want nil", path, err)
	}
	if key.PublicKey() != out || !strings.Contains(errOut, key.KeyID()) {
		t.Errorf("strata mirror signing-key printed %q and %q, want the public key and the ID %s", out, errOut, key.KeyID())
	}
	checkRun(t, []string{"mirror", "signing-key", path}, 1, nil, []string{"file exists"})
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
