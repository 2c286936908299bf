package deadline

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/testkit"
)

// TestHeaderTimeout sends requests through HeaderTimeout: to a listener
// that never answers, it gives up at the deadline naming the URL; a
// response that starts in time streams on past the deadline.
func TestHeaderTimeout(t *testing.T) {
	dead := "http://" + testkit.DeadListener(t) + "/api/v1/namespaces"
	stream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		for i := range 3 {
			time.Sleep(200 * time.Millisecond)
			_, _ = io.WriteString(w, strings.Repeat("x", i+1))
			w.(http.Flusher).Flush()
		}
	}))
	defer stream.Close()
	client := &http.Client{Transport: HeaderTimeout(http.DefaultTransport, 300*time.Millisecond)}

	start := time.Now()
	_, err := client.Get(dead)
	if want := "GET " + dead + ": no answer within 300ms"; err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Get(%q) = %v, want %q", dead, err, want)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Get(%q) took %v, want about 300ms", dead, took)
	}

	resp, err := client.Get(stream.URL)
	if err != nil {
		t.Fatalf("Get(%q) = %v, want a stream", stream.URL, err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || string(b) != "xxxxxx" {
		t.Errorf("Get(%q) body = %q, %v, want the whole stream past the deadline", stream.URL, b, err)
	}
}
