package providers

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/strata-iac/strata/registry-mirror/mirrortest"
	"github.com/strata-iac/strata/registry-mirror/protocol"
)

func TestPullThroughIndexes(t *testing.T) {
	p := newPullSetup(t, nil, Options{})
	// The cache holds a version of its own, which the upstream lacks.
	add(t, p.cacheStore, "0.3.0", "linux", "amd64")
	if err := p.cacheStore.Add(context.Background(), "mirror.internal", testNS, testType, "1.0.0", "linux", "amd64",
		bytes.NewReader(mirrortest.ProviderZip(t, "1.0.0"))); err != nil {
		t.Fatal(err)
	}
	la, da := p.upstreamArchive(t, "0.1.0", "linux_amd64"), p.upstreamArchive(t, "0.1.0", "darwin_arm64")
	own := p.held(t, "0.3.0")["linux_amd64"]

	tests := []struct {
		name       string
		path       string
		wantStatus int
		want       any
		// wantUpstream are the upstream paths asked, each once, in order.
		wantUpstream []string
	}{
		{"index: the upstream's versions and the cache's", pullBase + "index.json", 200,
			map[string]map[string]struct{}{"versions": {"0.1.0": {}, "0.2.0": {}, "0.3.0": {}}},
			[]string{protocol.DiscoveryPath, Path + testNS + "/" + testType + "/versions"}},
		{"index again: the version list is kept", pullBase + "index.json", 200,
			map[string]map[string]struct{}{"versions": {"0.1.0": {}, "0.2.0": {}, "0.3.0": {}}}, nil},
		{"version not held: zh from the signed SHA256SUMS", pullBase + "0.1.0.json", 200,
			map[string]map[string]Archive{"archives": {
				"linux_amd64":  {URL: la.URL, Hashes: la.Hashes[1:]},
				"darwin_arm64": {URL: da.URL, Hashes: da.Hashes[1:]},
			}},
			[]string{
				Path + testNS + "/" + testType + "/0.1.0/download/darwin/arm64",
				Path + testNS + "/" + testType + "/0.1.0/" + SHA256SumsName(testType, "0.1.0"),
				Path + testNS + "/" + testType + "/0.1.0/" + SHA256SumsName(testType, "0.1.0") + ".sig",
			}},
		{"version again: the SHA256SUMS is kept", pullBase + "0.1.0.json", 200,
			map[string]map[string]Archive{"archives": {
				"linux_amd64":  {URL: la.URL, Hashes: la.Hashes[1:]},
				"darwin_arm64": {URL: da.URL, Hashes: da.Hashes[1:]},
			}}, nil},
		{"the cache's own version", pullBase + "0.3.0.json", 200,
			map[string]map[string]Archive{"archives": {"linux_amd64": own}}, nil},
		{"a version neither has", pullBase + "9.0.0.json", 404, nil, nil},
		{"a provider the upstream does not know", "/" + testHost + "/" + testNS + "/nothing/index.json", 404, nil,
			[]string{Path + testNS + "/nothing/versions"}},
		{"another hostname never goes upstream", "/mirror.internal/" + testNS + "/" + testType + "/index.json", 200,
			map[string]map[string]struct{}{"versions": {"1.0.0": {}}}, nil},
		{"another hostname, not held", "/example.com/" + testNS + "/" + testType + "/index.json", 404, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p.upstream.Reset()
			status, body := p.get(t, tt.path)
			if status != tt.wantStatus {
				t.Fatalf("GET %s = %d %q, want %d", tt.path, status, body, tt.wantStatus)
			}
			if tt.want != nil {
				got := newLike(tt.want)
				if err := json.Unmarshal(body, got); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, deref(got)); diff != "" {
					t.Errorf("GET %s mismatch (-want +got):\n%s", tt.path, diff)
				}
			}
			if diff := cmp.Diff(tt.wantUpstream, mirrortest.UniquePaths(p.upstream.Requests())); diff != "" {
				t.Errorf("GET %s: upstream requests mismatch (-want +got):\n%s", tt.path, diff)
			}
		})
	}
}

func TestPullThroughVersionTTL(t *testing.T) {
	p := newPullSetup(t, nil, Options{UpstreamTTL: time.Nanosecond})
	for range 2 {
		p.upstream.Reset()
		if status, body := p.get(t, pullBase+"index.json"); status != 200 {
			t.Fatalf("GET index.json = %d %q, want 200", status, body)
		}
		if n := mirrortest.Count(p.upstream.Requests(), Path+testNS+"/"+testType+"/versions"); n != 1 {
			t.Errorf("upstream versions requests = %d, want 1 each time once the list expired", n)
		}
	}
}

// newLike returns a pointer to a new zero value of v's type.
func newLike(v any) any {
	switch v.(type) {
	case map[string]map[string]struct{}:
		return &map[string]map[string]struct{}{}
	case map[string]map[string]Archive:
		return &map[string]map[string]Archive{}
	}
	panic("newLike: unknown type")
}

// deref is the value newLike's pointer points at.
func deref(p any) any {
	switch p := p.(type) {
	case *map[string]map[string]struct{}:
		return *p
	case *map[string]map[string]Archive:
		return *p
	}
	panic("deref: unknown type")
}
