package oci

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRefString(t *testing.T) {
	d := "sha256:" + strings.Repeat("ab", 32)
	tests := []struct {
		ref  Ref
		want string
	}{
		{Ref{Digest: d, Semver: "1.0.0", Tag: "x"}, `digest "` + d + `"`},
		{Ref{Semver: "~ 0.1.0-0", Tag: "x"}, `semver "~ 0.1.0-0"`},
		{Ref{Tag: "0.2.0"}, `tag "0.2.0"`},
		{Ref{}, `tag "latest"`},
	}
	for _, tt := range tests {
		if got := tt.ref.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.ref, got, tt.want)
		}
	}
}

func TestRepository(t *testing.T) {
	c := New(Options{Insecure: []string{"127.0.0.1:5000", " HTTP://Registry.LAN:5000/ "}})
	tests := []struct {
		url, want, scheme, err string
	}{
		{"oci://127.0.0.1:5000/iac/foo", "127.0.0.1:5000/iac/foo", "http", ""},
		{"oci://registry.lan:5000/iac/foo", "registry.lan:5000/iac/foo", "http", ""},
		{"oci://ghcr.io/org/iac/foo", "ghcr.io/org/iac/foo", "https", ""},
		{"oci://10.0.0.1:5000/iac/foo", "10.0.0.1:5000/iac/foo", "http", ""}, // the transport still refuses it
		{"oci://ghcr.io/org/foo:1.0.0", "", "", `address must not contain a tag; remove ":1.0.0"`},
		{"oci://ghcr.io/org/foo@sha256:" + strings.Repeat("0", 64), "", "", "must not contain a digest"},
		{"ghcr.io/org/foo", "", "", "address must look like oci://host/repository"},
		{"oci://ghcr.io/Org/Foo", "", "", "repository can only contain"},
	}
	for _, tt := range tests {
		repo, err := c.repository(tt.url)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("repository(%q) = %v, want an error containing %q", tt.url, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("repository(%q) = %v", tt.url, err)
			continue
		}
		if repo.Name() != tt.want || repo.Scheme() != tt.scheme {
			t.Errorf("repository(%q) = %s (%s), want %s (%s)", tt.url, repo.Name(), repo.Scheme(), tt.want, tt.scheme)
		}
	}
	if diff := cmp.Diff(map[string]bool{"127.0.0.1:5000": true, "registry.lan:5000": true}, c.insecure); diff != "" {
		t.Errorf("New(Insecure).insecure mismatch (-want +got):\n%s", diff)
	}
}

func TestArtefact(t *testing.T) {
	c := New(Options{})
	tests := []struct {
		url, want, err string
	}{
		{"oci://127.0.0.1:5000/iac/foo:0.1.0", "127.0.0.1:5000/iac/foo:0.1.0", ""},
		{"oci://ghcr.io/org/foo:v1.0.0-rc.1", "ghcr.io/org/foo:v1.0.0-rc.1", ""},
		{"oci://127.0.0.1:5000/iac/foo", "", "address must end with a tag"},
		{"oci://ghcr.io/org/foo:bad+tag", "", "tag can only contain"},
	}
	for _, tt := range tests {
		tag, err := c.artefact(tt.url)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("artefact(%q) = %v, want an error containing %q", tt.url, err, tt.err)
			}
			continue
		}
		if err != nil || tag.String() != tt.want {
			t.Errorf("artefact(%q) = %v, %v, want %s", tt.url, tag, err, tt.want)
		}
	}
}

type okTransport struct{}

func (okTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Body: http.NoBody}, nil
}

func TestHTTPSOnly(t *testing.T) {
	tr := &httpsOnly{next: okTransport{}, insecure: map[string]bool{"127.0.0.1:5000": true}}
	tests := []struct {
		url string
		ok  bool
	}{
		{"https://ghcr.io/v2/", true},
		{"https://127.0.0.1:5001/v2/", true},
		{"http://127.0.0.1:5000/v2/", true},
		{"http://127.0.0.1:5001/v2/", false},
		{"http://localhost:5000/v2/", false},
		{"http://ghcr.io/v2/", false},
	}
	for _, tt := range tests {
		req, err := http.NewRequest(http.MethodGet, tt.url, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := tr.RoundTrip(req)
		if resp != nil {
			resp.Body.Close()
		}
		var pe *PlainHTTPError
		if got := err == nil; got != tt.ok || (!tt.ok && !errors.As(err, &pe)) {
			t.Errorf("RoundTrip(%q) = %v, want ok %v", tt.url, err, tt.ok)
		}
	}
}
