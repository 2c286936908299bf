package providers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/registry-mirror/mirrortest"
	"github.com/strata-iac/strata/registry-mirror/protocol"
	"github.com/strata-iac/strata/registry-mirror/storage"
)

func TestAddProvider(t *testing.T) {
	ctx := context.Background()
	sDir := filepath.Join(t.TempDir(), "mirror")
	s := NewStore(storage.NewDir(sDir))
	data := mirrortest.ProviderZip(t, "0.1.0")
	if err := s.Add(ctx, testHost, testNS, testType, "0.1.0", "linux", "amd64", bytes.NewReader(data)); err != nil {
		t.Fatalf("Add() = %v, want nil", err)
	}
	dir := filepath.Join(sDir, testHost, testNS, testType)
	path := filepath.Join(dir, "terraform-provider-strata_0.1.0_linux_amd64.zip")
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("ReadFile(%q) = %v, want the archive", path, err)
	}
	if !bytes.Equal(got, data) {
		t.Errorf("ReadFile(%q) = %d bytes, want the %d uploaded", path, len(got), len(data))
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("Stat(%q) = %v, %v, want mode 0644", path, info, err)
	}
	assertNoTemporaryFiles(t, dir)
	var hf hashesFile
	if raw, err := os.ReadFile(path + ".hashes"); err != nil || json.Unmarshal(raw, &hf) != nil {
		t.Errorf("ReadFile(%q.hashes) = %q, %v, want the hashes as JSON", path, raw, err)
	}
	if want := hashesOf(t, data); hf.H1 != want.H1 || hf.ZH != want.ZH || hf.Size != int64(len(data)) {
		t.Errorf("hashes file = %+v, want %v of %d bytes", hf, want, len(data))
	}

	t.Run("same bytes again", func(t *testing.T) {
		if err := s.Add(ctx, testHost, testNS, testType, "0.1.0", "linux", "amd64", bytes.NewReader(data)); err != nil {
			t.Errorf("Add(same bytes) = %v, want nil", err)
		}
		assertNoTemporaryFiles(t, dir)
	})
	t.Run("different bytes", func(t *testing.T) {
		err := s.Add(ctx, testHost, testNS, testType, "0.1.0", "linux", "amd64", bytes.NewReader(mirrortest.ProviderZip(t, "other")))
		if !errors.Is(err, protocol.ErrExists) {
			t.Errorf("Add(different bytes) = %v, want protocol.ErrExists", err)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, data) {
			t.Errorf("archive %s changed, want the first upload kept", path)
		}
		assertNoTemporaryFiles(t, dir)
	})
	t.Run("normalized to lower case", func(t *testing.T) {
		if err := s.Add(ctx, "REGISTRY.opentofu.org", "Strata-IaC", "Strata", "0.2.0", "Linux", "AMD64",
			bytes.NewReader(mirrortest.ProviderZip(t, "0.2.0"))); err != nil {
			t.Fatalf("Add(mixed case) = %v, want nil", err)
		}
		if _, err := os.Stat(filepath.Join(dir, "terraform-provider-strata_0.2.0_linux_amd64.zip")); err != nil {
			t.Errorf("Stat(0.2.0 archive) = %v, want it stored under lower-case names", err)
		}
	})
}

// addArgs are AddProvider's arguments.
type addArgs struct {
	ctx                  context.Context
	host, namespace, typ string
	version, os, arch    string
	zip                  []byte
}

func TestAddProviderRejects(t *testing.T) {
	exe := mirrortest.File{Name: "terraform-provider-strata_v0.1.0", Mode: 0o755, Body: "binary"}
	withZip := func(files ...mirrortest.File) func(*addArgs) {
		z := mirrortest.Zip(t, files...)
		return func(a *addArgs) { a.zip = z }
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		args    func(*addArgs)
		want    error
		wantMsg string
	}{
		{"not a zip", func(a *addArgs) { a.zip = []byte("not a zip") }, protocol.ErrInvalid, "zip: not a valid zip file"},
		{"no executable", withZip(mirrortest.File{Name: "README.md"}), protocol.ErrInvalid, "no provider executable terraform-provider-strata"},
		{"executable of another provider", withZip(mirrortest.File{Name: "terraform-provider-other", Mode: 0o755}), protocol.ErrInvalid, "no provider executable"},
		{"executable name not delimited", withZip(mirrortest.File{Name: "terraform-provider-stratax", Mode: 0o755}), protocol.ErrInvalid, "no provider executable"},
		{"executable in a directory", withZip(mirrortest.File{Name: "bin/terraform-provider-strata", Mode: 0o755}), protocol.ErrInvalid, "no provider executable"},
		{"not executable", withZip(mirrortest.File{Name: "terraform-provider-strata", Mode: 0o644}), protocol.ErrInvalid, "is not executable"},
		{"directory entry", withZip(exe, mirrortest.File{Name: "docs/", Mode: fs.ModeDir | 0o755}), protocol.ErrInvalid, `directory entry "docs/"`},
		{"path leaving the package", withZip(exe, mirrortest.File{Name: "../evil"}), protocol.ErrInvalid, `file name "../evil"`},
		{"absolute path", withZip(exe, mirrortest.File{Name: "/etc/evil"}), protocol.ErrInvalid, `file name "/etc/evil"`},
		{"symlink", withZip(exe, mirrortest.File{Name: "link", Mode: fs.ModeSymlink | 0o777, Body: "/etc/passwd"}), protocol.ErrInvalid, "not a regular file"},
		{"bad hostname", func(a *addArgs) { a.host = "bad_host" }, protocol.ErrInvalid, `hostname "bad_host"`},
		{"dot dot namespace", func(a *addArgs) { a.namespace = ".." }, protocol.ErrInvalid, `namespace ".."`},
		{"slash in type", func(a *addArgs) { a.typ = "a/b" }, protocol.ErrInvalid, `type "a/b"`},
		{"v in version", func(a *addArgs) { a.version = "v0.1.0" }, protocol.ErrInvalid, `version "v0.1.0"`},
		{"underscore in os", func(a *addArgs) { a.os = "linux_x" }, protocol.ErrInvalid, `os "linux_x"`},
		{"dash arch", func(a *addArgs) { a.arch = "-" }, protocol.ErrInvalid, `arch "-"`},
		{"cancelled", func(a *addArgs) { a.ctx = cancelled }, context.Canceled, "context canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, sDir := newDirStore(t)
			a := addArgs{context.Background(), testHost, testNS, testType, "0.1.0", "linux", "amd64", mirrortest.Zip(t, exe)}
			tt.args(&a)
			err := s.Add(a.ctx, a.host, a.namespace, a.typ, a.version, a.os, a.arch, bytes.NewReader(a.zip))
			if !errors.Is(err, tt.want) || err == nil || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Fatalf("Add(%s/%s/%s %s %s_%s) = %v, want %v containing %q", a.host, a.namespace, a.typ, a.version, a.os, a.arch, err, tt.want, tt.wantMsg)
			}
			if !strings.HasPrefix(err.Error(), "add provider ") {
				t.Errorf("Add() = %q, want it to start with \"add provider \"", err)
			}
			// Nothing is left behind.
			filepath.WalkDir(sDir, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					t.Errorf("Add() left %s behind", p)
				}
				return nil
			})
		})
	}
}

func TestAddProviderWindowsExecutableNeedsNoMode(t *testing.T) {
	s, _ := newDirStore(t)
	zip := mirrortest.Zip(t, mirrortest.File{Name: "terraform-provider-strata_v0.1.0.exe", Mode: 0o644, Body: "MZ"})
	if err := s.Add(context.Background(), testHost, testNS, testType, "0.1.0", "windows", "amd64", bytes.NewReader(zip)); err != nil {
		t.Errorf("Add(windows) = %v, want nil", err)
	}
}

// TestAddProviderConcurrent uploads two different archives to one path at
// once: exactly one wins, whole, and the other gets protocol.ErrExists.
func TestAddProviderConcurrent(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			s := b.new(t)
			zips := [][]byte{mirrortest.ProviderZip(t, "a"), mirrortest.ProviderZip(t, "b")}
			errs := make([]error, len(zips))
			var wg sync.WaitGroup
			for i, z := range zips {
				wg.Go(func() {
					errs[i] = s.Add(context.Background(), testHost, testNS, testType, "0.1.0", "linux", "amd64", bytes.NewReader(z))
				})
			}
			wg.Wait()
			won := -1
			for i, err := range errs {
				switch {
				case err == nil && won == -1:
					won = i
				case errors.Is(err, protocol.ErrExists):
				default:
					t.Errorf("Add(%d) = %v, want nil for one and protocol.ErrExists for the other", i, err)
				}
			}
			if won == -1 {
				t.Fatalf("Add() = %v, want one to succeed", errs)
			}
			key := testHost + "/" + testNS + "/" + testType + "/terraform-provider-strata_0.1.0_linux_amd64.zip"
			if got := mirrortest.ReadKey(t, s.st, key); !bytes.Equal(got, zips[won]) {
				t.Errorf("stored archive is not the one that won the race")
			}
			archives, err := s.Archives(context.Background(), testHost, testNS, testType, "0.1.0")
			if err != nil {
				t.Fatal(err)
			}
			if got, want := archives["linux_amd64"].Hashes, hashesOf(t, zips[won]).List(); !slices.Equal(got, want) {
				t.Errorf("Archives() hashes = %v, want the winner's %v", got, want)
			}
		})
	}
}

func TestPut(t *testing.T) {
	const token = "s3cret"
	const path = "/registry.opentofu.org/strata-iac/strata/terraform-provider-strata_0.1.0_linux_amd64.zip"
	data := mirrortest.ProviderZip(t, "0.1.0")
	tests := []struct {
		name       string
		opts       Options
		path       string
		auth       string
		body       []byte
		wantStatus int
		wantBody   string
	}{
		{"uploads disabled", Options{}, path, "Bearer " + token, data, http.StatusMethodNotAllowed, ""},
		{"no token", Options{UploadToken: token}, path, "", data, http.StatusUnauthorized, "bearer token"},
		{"wrong token", Options{UploadToken: token}, path, "Bearer nope", data, http.StatusUnauthorized, "bearer token"},
		{"basic auth", Options{UploadToken: token}, path, "Basic " + token, data, http.StatusUnauthorized, "bearer token"},
		{"created", Options{UploadToken: token}, path, "Bearer " + token, data, http.StatusCreated, `"url":"terraform-provider-strata_0.1.0_linux_amd64.zip"`},
		{"not a zip", Options{UploadToken: token}, path, "Bearer " + token, []byte("nope"), http.StatusBadRequest, "not a valid zip"},
		{"too large", Options{UploadToken: token, MaxUpload: 10}, path, "Bearer " + token, data, http.StatusRequestEntityTooLarge, "larger than 10 bytes"},
		{"index path", Options{UploadToken: token}, "/registry.opentofu.org/strata-iac/strata/index.json", "Bearer " + token, data, http.StatusNotFound, ""},
		{"archive of another type", Options{UploadToken: token}, "/registry.opentofu.org/strata-iac/strata/terraform-provider-other_0.1.0_linux_amd64.zip", "Bearer " + token, data, http.StatusNotFound, ""},
		{"traversal", Options{UploadToken: token}, "/registry.opentofu.org/..%2F..%2Ftmp/strata/terraform-provider-strata_0.1.0_linux_amd64.zip", "Bearer " + token, data, http.StatusNotFound, ""},
		{"too deep", Options{UploadToken: token}, "/x" + path, "Bearer " + token, data, http.StatusNotFound, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newDirStore(t)
			srv := testServer(s, tt.opts)
			req := httptest.NewRequest(http.MethodPut, tt.path, bytes.NewReader(tt.body))
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			if rec.Code != tt.wantStatus || !strings.Contains(rec.Body.String(), tt.wantBody) {
				t.Errorf("PUT %s = %d %q, want %d containing %q", tt.path, rec.Code, rec.Body, tt.wantStatus, tt.wantBody)
			}
			if tt.wantStatus != http.StatusCreated {
				if v, err := s.Versions(context.Background(), testHost, testNS, testType); !errors.Is(err, protocol.ErrNotFound) {
					t.Errorf("Versions() after a refused PUT = %v, %v, want protocol.ErrNotFound", v, err)
				}
				return
			}
			var got Archive
			if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
				t.Fatalf("PUT %s body = %q: %v", tt.path, rec.Body, err)
			}
			want, err := s.Archives(context.Background(), testHost, testNS, testType, "0.1.0")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want["linux_amd64"], got); diff != "" {
				t.Errorf("PUT %s body mismatch (-index +got):\n%s", tt.path, diff)
			}
		})
	}

	t.Run("conflict", func(t *testing.T) {
		s, _ := newDirStore(t)
		add(t, s, "0.1.0", "linux", "amd64")
		srv := testServer(s, Options{UploadToken: token})
		req := httptest.NewRequest(http.MethodPut, path, bytes.NewReader(mirrortest.ProviderZip(t, "different")))
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code != http.StatusConflict {
			t.Errorf("PUT %s over a different archive = %d %q, want 409", path, rec.Code, rec.Body)
		}
	})
}

// assertNoTemporaryFiles fails when an upload left a temporary file in dir.
func assertNoTemporaryFiles(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("ReadDir(%q) has %s, want no temporary files", dir, e.Name())
		}
	}
}
