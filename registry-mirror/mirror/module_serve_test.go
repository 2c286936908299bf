package mirror

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/registry-mirror/mirrortest"
)

func TestServeModuleProtocol(t *testing.T) {
	ctx := context.Background()
	s := NewStore(t.TempDir())
	for _, v := range []string{"1.10.0", "1.2.0", "2.0.0-rc.1"} {
		if err := s.Modules.Add(ctx, "strata", "echo", "null", v, bytes.NewReader(mirrortest.Module(t, v))); err != nil {
			t.Fatal(err)
		}
	}
	archive := mirrortest.ReadKey(t, s.st, "modules/strata/echo/null/1.2.0.tar.gz")
	srv := NewServer(s, Options{UploadToken: "t"})
	const base = "/v1/modules/strata/echo/null/"

	tests := []struct {
		name       string
		method     string
		path       string
		wantStatus int
		wantType   string
		wantGet    string
		wantBody   string
	}{
		{"discovery", "GET", "/.well-known/terraform.json", 200, "application/json", "",
			"{\n  \"modules.v1\": \"/v1/modules/\"\n}\n"},
		{"versions", "GET", base + "versions", 200, "application/json", "",
			`{
  "modules": [
    {
      "versions": [
        {
          "version": "1.2.0"
        },
        {
          "version": "1.10.0"
        },
        {
          "version": "2.0.0-rc.1"
        }
      ]
    }
  ]
}
`},
		{"versions, any case", "GET", "/v1/modules/Strata/Echo/null/versions", 200, "application/json", "", ""},
		{"download", "GET", base + "1.2.0/download", 204, "", "../1.2.0.tar.gz", ""},
		{"archive", "GET", base + "1.2.0.tar.gz", 200, "application/gzip", "", string(archive)},
		{"archive head", "HEAD", base + "1.2.0.tar.gz", 200, "application/gzip", "", ""},
		{"discovery head", "HEAD", "/.well-known/terraform.json", 200, "application/json", "", ""},
		{"unknown module", "GET", "/v1/modules/strata/other/null/versions", 404, "", "", ""},
		{"unknown version download", "GET", base + "1.3.0/download", 404, "", "", ""},
		{"unknown version archive", "GET", base + "1.3.0.tar.gz", 404, "", "", ""},
		{"invalid version download", "GET", base + "v1.2.0/download", 404, "", "", ""},
		{"invalid archive name", "GET", base + "1.2.0.zip", 404, "", "", ""},
		{"invalid namespace", "GET", "/v1/modules/-x/echo/null/versions", 404, "", "", ""},
		{"encoded traversal", "GET", "/v1/modules/..%2F..%2Fetc/echo/null/versions", 404, "", "", ""},
		{"too short", "GET", "/v1/modules/strata/echo/versions", 404, "", "", ""},
		{"too deep", "GET", base + "1.2.0/download/x", 404, "", "", ""},
		{"other well-known", "GET", "/.well-known/other.json", 404, "", "", ""},
		{"post", "POST", base + "versions", 405, "", "", ""},
		{"delete", "DELETE", base + "1.2.0.tar.gz", 405, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, httptest.NewRequest(tt.method, tt.path, nil))
			got := rec.Result()
			body, _ := io.ReadAll(got.Body)
			if got.StatusCode != tt.wantStatus {
				t.Fatalf("%s %s = %d %q, want %d", tt.method, tt.path, got.StatusCode, body, tt.wantStatus)
			}
			if tt.wantType != "" && got.Header.Get("Content-Type") != tt.wantType {
				t.Errorf("%s %s Content-Type = %q, want %q", tt.method, tt.path, got.Header.Get("Content-Type"), tt.wantType)
			}
			if got := got.Header.Get("X-Terraform-Get"); got != tt.wantGet {
				t.Errorf("%s %s X-Terraform-Get = %q, want %q", tt.method, tt.path, got, tt.wantGet)
			}
			if tt.wantBody != "" && tt.method == "GET" {
				if diff := cmp.Diff(tt.wantBody, string(body)); diff != "" {
					t.Errorf("%s %s body mismatch (-want +got):\n%s", tt.method, tt.path, diff)
				}
			}
		})
	}
}

func TestPutModule(t *testing.T) {
	const token = "s3cret"
	const path = "/v1/modules/strata/echo/null/1.0.0.tar.gz"
	data := mirrortest.Module(t, "1.0.0")
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
		{"created", Options{UploadToken: token}, path, "Bearer " + token, data, http.StatusCreated, `{"module":"strata/echo/null","version":"1.0.0"}`},
		{"created, any case", Options{UploadToken: token}, "/v1/modules/Strata/Echo/null/1.0.0.tar.gz", "Bearer " + token, data, http.StatusCreated, `"module":"strata/echo/null"`},
		{"not a module", Options{UploadToken: token}, path, "Bearer " + token, []byte("nope"), http.StatusBadRequest, "want a gzipped tar"},
		{"too large", Options{UploadToken: token, MaxUpload: 10}, path, "Bearer " + token, data, http.StatusRequestEntityTooLarge, "larger than 10 bytes"},
		{"versions path", Options{UploadToken: token}, "/v1/modules/strata/echo/null/versions", "Bearer " + token, data, http.StatusNotFound, ""},
		{"invalid version", Options{UploadToken: token}, "/v1/modules/strata/echo/null/v1.0.0.tar.gz", "Bearer " + token, data, http.StatusNotFound, ""},
		{"invalid name", Options{UploadToken: token}, "/v1/modules/strata/e..cho/null/1.0.0.tar.gz", "Bearer " + token, data, http.StatusNotFound, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewStore(t.TempDir())
			req := httptest.NewRequest(http.MethodPut, tt.path, bytes.NewReader(tt.body))
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			rec := httptest.NewRecorder()
			NewServer(s, tt.opts).ServeHTTP(rec, req)
			if rec.Code != tt.wantStatus || !strings.Contains(rec.Body.String(), tt.wantBody) {
				t.Errorf("PUT %s = %d %q, want %d containing %q", tt.path, rec.Code, rec.Body, tt.wantStatus, tt.wantBody)
			}
			versions, err := s.Modules.Versions(context.Background(), "strata", "echo", "null")
			if stored := err == nil && len(versions) == 1; stored != (tt.wantStatus == http.StatusCreated) {
				t.Errorf("ModuleVersions() after PUT %s = %v, %v, want stored %v", tt.path, versions, err, tt.wantStatus == http.StatusCreated)
			}
		})
	}

	t.Run("conflict", func(t *testing.T) {
		s := NewStore(t.TempDir())
		if err := s.Modules.Add(context.Background(), "strata", "echo", "null", "1.0.0", bytes.NewReader(data)); err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest(http.MethodPut, path, bytes.NewReader(mirrortest.Module(t, "other")))
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		NewServer(s, Options{UploadToken: token}).ServeHTTP(rec, req)
		if rec.Code != http.StatusConflict {
			t.Errorf("PUT %s over a different archive = %d %q, want 409", path, rec.Code, rec.Body)
		}
	})
}

// TestServeModuleStoreErrors checks that a store failure is a 500, not a
// 404 that tofu would read as "no such module".
func TestServeModuleStoreErrors(t *testing.T) {
	dir := t.TempDir()
	// A file where the module's directory should be cannot be listed.
	testkit.WriteFile(t, filepath.Join(dir, "modules", "strata", "echo", "null"), "")
	srv := NewServer(NewStore(dir), Options{})
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("GET", "/v1/modules/strata/echo/null/versions", nil))
	if rec.Code != http.StatusInternalServerError {
		t.Errorf("GET versions of an unreadable directory = %d, want 500", rec.Code)
	}
}
