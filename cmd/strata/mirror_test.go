package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/contracts/awstest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/registry-mirror/mirrortest"
)

// mirrorZip writes a minimal package of strata-iac/strata to dir/name.
func mirrorZip(t *testing.T, dir, name, body string) string {
	t.Helper()
	return mirrortest.ZipFile(t, dir, name, mirrortest.File{Name: "terraform-provider-strata_v" + body, Mode: 0o755, Body: body})
}

// zipBytes is a minimal package of strata-iac/strata, in memory.
func zipBytes(t *testing.T, body string) []byte {
	t.Helper()
	return mirrortest.Zip(t, mirrortest.File{Name: "terraform-provider-strata_v" + body, Mode: 0o755, Body: body})
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
