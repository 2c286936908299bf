package mirror

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/registry-mirror/mirrortest"
)

// TestS3StoreWrites checks the objects an upload writes: under the
// prefix, encrypted with SSE-S3, archives only if their key is free.
func TestS3StoreWrites(t *testing.T) {
	ctx := context.Background()
	rec := &s3Recorder{next: http.DefaultClient}
	s := s3StoreWith(t, s3Server(t), testBucket, rec)
	add(t, s, "0.1.0", "linux", "amd64")
	if err := s.Modules.Add(ctx, "strata", "echo", "null", "1.0.0", bytes.NewReader(mirrortest.Module(t, "1.0.0"))); err != nil {
		t.Fatalf("AddModule() = %v, want nil", err)
	}
	const base = "/" + testBucket + "/strata/mirror/"
	const zip = base + "registry.opentofu.org/strata-iac/strata/terraform-provider-strata_0.1.0_linux_amd64.zip"
	want := []s3Request{
		{"PUT", zip, "AES256", "*", "application/zip", ""},
		{"PUT", zip + ".hashes", "AES256", "", "application/json", ""},
		{"PUT", base + "modules/strata/echo/null/1.0.0.tar.gz", "AES256", "*", "application/gzip", ""},
	}
	if diff := cmp.Diff(want, rec.requests(http.MethodPut)); diff != "" {
		t.Errorf("uploads' PUT requests mismatch (-want +got):\n%s", diff)
	}
	if got, want := s.Location("modules", "strata"), "s3://"+testBucket+"/strata/mirror/modules/strata"; got != want {
		t.Errorf("Location(modules, strata) = %q, want %q", got, want)
	}
}

// TestS3ServesWithoutReadingArchives checks that indexes come from
// listings and hashes files, never from the archives, and that a range
// request reads only its range.
func TestS3ServesWithoutReadingArchives(t *testing.T) {
	ctx := context.Background()
	endpoint := s3Server(t)
	s := s3StoreOn(t, endpoint, testBucket)
	add(t, s, "0.1.0", "linux", "amd64")
	add(t, s, "0.1.0", "darwin", "arm64")
	if err := s.Modules.Add(ctx, "strata", "echo", "null", "1.0.0", bytes.NewReader(mirrortest.Module(t, "1.0.0"))); err != nil {
		t.Fatal(err)
	}
	// A new store has nothing in memory, as after a restart.
	rec := &s3Recorder{next: http.DefaultClient}
	fresh := s3StoreWith(t, endpoint, testBucket, rec)
	srv := NewServer(fresh, Options{})
	get := func(path string, header ...string) *httptest.ResponseRecorder {
		t.Helper()
		req := httptest.NewRequest(http.MethodGet, path, nil)
		if len(header) == 2 {
			req.Header.Set(header[0], header[1])
		}
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		if w.Code != http.StatusOK && w.Code != http.StatusPartialContent && w.Code != http.StatusNoContent {
			t.Fatalf("GET %s = %d %q", path, w.Code, w.Body)
		}
		return w
	}
	const base = "/registry.opentofu.org/strata-iac/strata/"
	for range 2 {
		get(base + "index.json")
		get(base + "0.1.0.json")
		get("/v1/modules/strata/echo/null/versions")
		get("/v1/modules/strata/echo/null/1.0.0/download")
	}
	for _, r := range rec.requests(http.MethodGet) {
		if strings.HasSuffix(r.Path, ".zip") || strings.HasSuffix(r.Path, ".tar.gz") {
			t.Errorf("serving indexes sent GET %s, want no archive read", r.Path)
		}
	}
	if got := len(rec.requests(http.MethodGet, ".hashes")); got != 2 {
		t.Errorf("serving indexes twice read %d hashes files, want 2 (one per archive, then from memory)", got)
	}

	rec.reset()
	w := get(base+"terraform-provider-strata_0.1.0_linux_amd64.zip", "Range", "bytes=2-5")
	if w.Code != http.StatusPartialContent || w.Body.Len() != 4 {
		t.Errorf("GET with Range bytes=2-5 = %d with %d bytes, want 206 with 4", w.Code, w.Body.Len())
	}
	gets := rec.requests(http.MethodGet)
	if len(gets) != 2 || gets[1].Range != "bytes=2-" {
		t.Errorf("GET with Range sent %+v, want the object, then a ranged GET from byte 2", gets)
	}
}

func TestStoreCheck(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	endpoint := s3Server(t)
	tests := []struct {
		name    string
		store   *Store
		wantErr string
	}{
		{"directory", NewStore(t.TempDir()), ""},
		{"directory not made yet", NewStore(filepath.Join(t.TempDir(), "later")), ""},
		{"a file", NewStore(file), "is not a directory"},
		{"bucket", s3StoreOn(t, endpoint, testBucket), ""},
		{"missing bucket", s3StoreOn(t, endpoint, "missing"), "check mirror store s3://missing/strata/mirror/: list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.store.Check(ctx)
			if (tt.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("Check() of %s = %v, want error %q", tt.store.Location(), err, tt.wantErr)
			}
		})
	}
}

// s3Request is what the tests look at in a request to S3.
type s3Request struct {
	Method, Path string
	// SSE, IfNoneMatch, ContentType and Range are headers.
	SSE, IfNoneMatch, ContentType, Range string
}

// s3Recorder records the requests a store sends to S3, and passes them on
// to the real server through next.
type s3Recorder struct {
	next *http.Client
	mu   sync.Mutex
	reqs []s3Request
}

func (r *s3Recorder) Do(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.reqs = append(r.reqs, s3Request{
		Method: req.Method, Path: req.URL.Path,
		SSE:         req.Header.Get("X-Amz-Server-Side-Encryption"),
		IfNoneMatch: req.Header.Get("If-None-Match"),
		ContentType: req.Header.Get("Content-Type"),
		Range:       req.Header.Get("Range"),
	})
	r.mu.Unlock()
	return r.next.Do(req)
}

// requests returns the recorded requests of a method, whose path ends
// with suffix when one is given.
func (r *s3Recorder) requests(method string, suffix ...string) []s3Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []s3Request
	for _, req := range r.reqs {
		if req.Method == method && (len(suffix) == 0 || strings.HasSuffix(req.Path, suffix[0])) {
			out = append(out, req)
		}
	}
	return out
}

func (r *s3Recorder) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = nil
}
