package providers

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestPullThroughUpstreamTimeout pulls through an upstream that accepts
// every request and never answers: the mirror gives up at
// UpstreamTimeout (--upstream-timeout), and says which URL did not
// answer within how long.
func TestPullThroughUpstreamTimeout(t *testing.T) {
	silent := func(http.Handler) http.Handler {
		return http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	}
	p := newPullSetup(t, silent, Options{UpstreamTimeout: 300 * time.Millisecond})
	start := time.Now()
	status, body := p.get(t, pullBase+"index.json")
	took := time.Since(start)
	if status == http.StatusOK || !strings.Contains(string(body), "no answer within 300ms") || !strings.Contains(string(body), p.upstream.Host()) {
		t.Errorf("GET %sindex.json = %d %q, want a failure naming the upstream and 300ms", pullBase, status, body)
	}
	if took > 10*time.Second {
		t.Errorf("GET %sindex.json took %v, want about 300ms", pullBase, took)
	}
}
