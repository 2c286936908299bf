package artifact

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// tarball makes a gzipped tarball of files, as source-controller serves.
func tarball(t *testing.T, files map[string]string) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, content := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(content)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(buf.Bytes())
	return buf.Bytes(), "sha256:" + hex.EncodeToString(sum[:])
}

func TestFetch(t *testing.T) {
	body, digest := tarball(t, map[string]string{"terraform/main.tf": `resource "terraform_data" "x" {}`})
	var gets atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gets.Add(1)
		if r.URL.Path != "/ocirepository/ns/app/latest.tar.gz" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	url := srv.URL + "/ocirepository/ns/app/latest.tar.gz"
	f := &Fetcher{CacheDir: t.TempDir()}
	ctx := context.Background()

	tests := []struct {
		name     string
		url      string
		digest   string
		wantErr  string
		wantGets int32
	}{
		{"downloaded and checked", url, digest, "", 1},
		{"cached by digest: no second download", url, digest, "", 1},
		{"digest mismatch", url, "sha256:" + strings.Repeat("0", 64), "digest mismatch", 2},
		{"not a sha256 digest", url, "md5:abc", "is not sha256", 2},
		{"digest that climbs out of the cache", url, "sha256:../../etc", "is not sha256", 2},
		{"missing artifact", srv.URL + "/nope.tar.gz", "sha256:" + strings.Repeat("1", 64), "404", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, err := f.Fetch(ctx, tt.url, tt.digest)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("Fetch(%q, %q) = %v, want an error containing %q", tt.url, tt.digest, err, tt.wantErr)
				}
			} else {
				if err != nil {
					t.Fatalf("Fetch(%q, %q) = %v, want no error", tt.url, tt.digest, err)
				}
				b, err := os.ReadFile(filepath.Join(dir, "terraform", "main.tf"))
				if err != nil || !strings.Contains(string(b), "terraform_data") {
					t.Errorf("Fetch(%q, %q) content = %q, %v, want main.tf", tt.url, tt.digest, b, err)
				}
			}
			if got := gets.Load(); got != tt.wantGets {
				t.Errorf("Fetch(%q, %q): %d downloads so far, want %d", tt.url, tt.digest, got, tt.wantGets)
			}
		})
	}
}

// TestFetchKeptWithoutRecords: a KeptURL names code kept in strata's
// records; a fetcher that was given none says so, and a malformed one
// names the form, before anything is read.
func TestFetchKeptWithoutRecords(t *testing.T) {
	digest := "sha256:" + strings.Repeat("a", 64)
	tests := []struct{ url, want string }{
		{KeptURL("acme", "dev", "network"), "kept in strata's records, which this process was not given"},
		{KeptScheme + ":acme/network", "is not " + KeptScheme + ":<client>/<env>/<stack>"},
	}
	for _, tt := range tests {
		_, err := (&Fetcher{CacheDir: t.TempDir()}).Fetch(context.Background(), tt.url, digest)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Fetch(%q) = %v, want an error containing %q", tt.url, err, tt.want)
		}
	}
	if got, want := KeptURL("a/b", "dev", "net work"), KeptScheme+":a%2Fb/dev/net%20work"; got != want {
		t.Errorf("KeptURL(a/b, dev, net work) = %q, want %q", got, want)
	}
}

// FuzzParseKeptURL reads any URL: one of the kept scheme that reads
// without error names what KeptURL makes it of, and KeptURL of any names
// reads back as them.
func FuzzParseKeptURL(f *testing.F) {
	for _, s := range []string{KeptURL("acme", "dev", "network"), KeptURL("a/b", "", "%"), KeptScheme + ":a/b", "http://x/y.tar.gz", KeptScheme + ":%zz/b/c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, u string) {
		client, env, stack, ok, err := parseKeptURL(u)
		if !ok || err != nil {
			return
		}
		again, aenv, astack, ok, err := parseKeptURL(KeptURL(client, env, stack))
		if !ok || err != nil || again != client || aenv != env || astack != stack {
			t.Fatalf("parseKeptURL(KeptURL(%q, %q, %q)) = %q, %q, %q, %v, %v, want them back", client, env, stack, again, aenv, astack, ok, err)
		}
	})
}
