package providers

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/registry-mirror/mirrortest"
	"github.com/strata-iac/strata/registry-mirror/protocol"
)

func TestCheckUpstream(t *testing.T) {
	tests := []struct {
		host    string
		wantErr error
	}{
		{"registry.opentofu.org", nil},
		{"127.0.0.1:8443", nil},
		{"[::1]:8443", nil},
		{"", protocol.ErrInvalid},
		{"https://registry.opentofu.org", protocol.ErrInvalid},
		{"registry.opentofu.org/", protocol.ErrInvalid},
		{"user@registry.opentofu.org", protocol.ErrInvalid},
		{"registry.opentofu.org:99999", protocol.ErrInvalid},
		{"registry opentofu org", protocol.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			if err := CheckUpstream(tt.host); !errors.Is(err, tt.wantErr) {
				t.Errorf("CheckUpstream(%q) = %v, want %v", tt.host, err, tt.wantErr)
			}
		})
	}
}

func TestNewUpstreamClient(t *testing.T) {
	if _, err := NewUpstreamClient([]byte("not PEM")); !errors.Is(err, protocol.ErrInvalid) {
		t.Errorf("NewUpstreamClient(not PEM) = %v, want %v", err, protocol.ErrInvalid)
	}
	srv := mirrortest.Serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/to-http":
			http.Redirect(w, r, "http://"+r.Host+"/ok", http.StatusFound)
		case "/to-https":
			http.Redirect(w, r, "/ok", http.StatusFound)
		default:
			w.Write([]byte("ok"))
		}
	}))
	ca, err := os.ReadFile(srv.Certs.CAFile)
	if err != nil {
		t.Fatal(err)
	}
	client, err := NewUpstreamClient(ca)
	if err != nil {
		t.Fatalf("NewUpstreamClient(CA) = %v, want nil", err)
	}
	system, err := NewUpstreamClient(nil)
	if err != nil {
		t.Fatalf("NewUpstreamClient(nil) = %v, want nil", err)
	}
	tests := []struct {
		name    string
		client  *http.Client
		path    string
		wantErr string
	}{
		{"trusts the CA given", client, "ok", ""},
		{"follows a redirect to https", client, "to-https", ""},
		{"refuses a redirect to http", client, "to-http", "not https"},
		{"system roots only", system, "ok", "certificate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := tt.client.Get(srv.URL + tt.path)
			if err == nil {
				resp.Body.Close()
			}
			if (tt.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("GET %s = %v, want error %q", tt.path, err, tt.wantErr)
			}
		})
	}
}

func TestRegistryClient(t *testing.T) {
	ctx := context.Background()
	s, _ := newDirStore(t)
	add(t, s, "0.1.0", "linux", "amd64")
	reg := testServer(s, Options{SigningKey: testSigningKey(t)})
	// discovery is the discovery document the server answers, unless a
	// test replaces it.
	var discovery atomic.Value
	discovery.Store("")
	srv := mirrortest.Serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == protocol.DiscoveryPath && discovery.Load() != "":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(discovery.Load().(string)))
		case r.URL.Path == "/broken":
			http.Error(w, "boom", http.StatusInternalServerError)
		case strings.HasPrefix(r.URL.Path, "/elsewhere/"):
			r.URL.Path = strings.Replace(r.URL.Path, "/elsewhere/", Path, 1)
			reg.ServeHTTP(w, r)
		default:
			reg.ServeHTTP(w, r)
		}
	}))
	newClient := func() *registryClient {
		return &registryClient{host: srv.Host(), client: srv.Client(), ttl: time.Minute}
	}
	base := strings.TrimSuffix(srv.URL, "/")

	t.Run("discovery is kept", func(t *testing.T) {
		c := newClient()
		srv.Reset()
		for range 2 {
			u, err := c.providersURL(ctx)
			if err != nil || u.String() != base+Path {
				t.Fatalf("providersURL() = %v, %v, want %s", u, err, base+Path)
			}
		}
		if n := mirrortest.Count(srv.Requests(), protocol.DiscoveryPath); n != 1 {
			t.Errorf("discovery requests = %d, want 1", n)
		}
	})

	t.Run("versions and download", func(t *testing.T) {
		c := newClient()
		versions, err := c.versions(ctx, testNS, testType)
		if err != nil {
			t.Fatalf("versions() = %v, want nil", err)
		}
		want := []registryVersion{{Version: "0.1.0", Protocols: []string{}, Platforms: []registryPlatform{{"linux", "amd64"}}}}
		if diff := cmp.Diff(want, versions); diff != "" {
			t.Errorf("versions() mismatch (-want +got):\n%s", diff)
		}
		d, u, err := c.download(ctx, testNS, testType, "0.1.0", "linux", "amd64")
		if err != nil || d.Filename != ArchiveName(testType, "0.1.0", "linux", "amd64") {
			t.Fatalf("download() = %+v, %v, want the linux_amd64 archive", d, err)
		}
		got, err := c.resolve(u, "download_url", d.DownloadURL)
		if err != nil || got.String() != base+d.DownloadURL {
			t.Errorf("resolve(%q) = %v, %v, want %s", d.DownloadURL, got, err, base+d.DownloadURL)
		}
	})

	tests := []struct {
		name      string
		discovery string
		call      func(c *registryClient) error
		wantErr   error
		wantText  string
	}{
		{"unknown provider", "", func(c *registryClient) error {
			_, err := c.versions(ctx, testNS, "nothing")
			return err
		}, protocol.ErrNotFound, "not found"},
		{"unknown platform", "", func(c *registryClient) error {
			_, _, err := c.download(ctx, testNS, testType, "0.1.0", "plan9", "amd64")
			return err
		}, protocol.ErrNotFound, "not found"},
		{"providers.v1 elsewhere, absolute", `{"providers.v1":"` + base + `/elsewhere"}`, func(c *registryClient) error {
			_, err := c.versions(ctx, testNS, testType)
			return err
		}, nil, ""},
		{"providers.v1 over http", `{"providers.v1":"http://127.0.0.1:1/v1/providers/"}`, func(c *registryClient) error {
			_, err := c.providersURL(ctx)
			return err
		}, protocol.ErrUpstream, "is not https"},
		{"no providers.v1", `{"modules.v1":"/v1/modules/"}`, func(c *registryClient) error {
			_, err := c.providersURL(ctx)
			return err
		}, protocol.ErrUpstream, "not a provider registry"},
		{"not JSON", `<html>`, func(c *registryClient) error {
			_, err := c.providersURL(ctx)
			return err
		}, protocol.ErrUpstream, "not the registry protocol's JSON"},
		{"server error", "", func(c *registryClient) error {
			_, err := c.get(ctx, &url.URL{Scheme: "https", Host: c.host, Path: "/broken"})
			return err
		}, protocol.ErrUpstream, "500 Internal Server Error"},
		{"relative URL resolved to http", "", func(c *registryClient) error {
			_, err := c.resolve(&url.URL{Scheme: "https", Host: c.host, Path: "/x"}, "download_url", "http://example.com/x.zip")
			return err
		}, protocol.ErrUpstream, "is not https"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			discovery.Store(tt.discovery)
			defer discovery.Store("")
			err := tt.call(newClient())
			if !errors.Is(err, tt.wantErr) || (err != nil && !strings.Contains(err.Error(), tt.wantText)) {
				t.Errorf("%s = %v, want %v saying %q", tt.name, err, tt.wantErr, tt.wantText)
			}
		})
	}
}
