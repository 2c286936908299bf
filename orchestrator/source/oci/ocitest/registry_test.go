package ocitest

import (
	"net/http"
	"strings"
	"testing"
)

func TestStart(t *testing.T) {
	tests := []struct {
		name string
		opts []Option
		want int
	}{
		{"anonymous", nil, http.StatusOK},
		{"basic auth", []Option{WithBasicAuth()}, http.StatusUnauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Start(t, tt.opts...)
			if !strings.HasPrefix(r.Host, "127.0.0.1:") {
				t.Errorf("Start().Host = %q, want 127.0.0.1:PORT", r.Host)
			}
			if got := get(t, r.Host, "", ""); got != tt.want {
				t.Errorf("GET /v2/ = %d, want %d", got, tt.want)
			}
			if tt.want == http.StatusUnauthorized {
				if got := get(t, r.Host, Username, Password); got != http.StatusOK {
					t.Errorf("GET /v2/ as %s = %d, want %d", Username, got, http.StatusOK)
				}
			}
			r.Stop()
			r.Stop() // a second Stop is harmless
			if _, err := http.Get("http://" + r.Host + "/v2/"); err == nil {
				t.Errorf("GET /v2/ after Stop() = nil error, want connection refused")
			}
		})
	}
}

func TestURLAndBlobPath(t *testing.T) {
	r := &Registry{Host: "127.0.0.1:5000", Root: "/tmp/reg"}
	if got, want := r.URL("iac/foo"), "oci://127.0.0.1:5000/iac/foo"; got != want {
		t.Errorf("URL(%q) = %q, want %q", "iac/foo", got, want)
	}
	d := "sha256:" + strings.Repeat("ab", 32)
	want := "/tmp/reg/docker/registry/v2/blobs/sha256/ab/" + strings.Repeat("ab", 32) + "/data"
	if got := r.BlobPath(d); got != want {
		t.Errorf("BlobPath(%q) = %q, want %q", d, got, want)
	}
}

func get(t *testing.T, host, user, pass string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, "http://"+host+"/v2/", nil)
	if err != nil {
		t.Fatal(err)
	}
	if user != "" {
		req.SetBasicAuth(user, pass)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
