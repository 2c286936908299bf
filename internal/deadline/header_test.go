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

// answerOnCancel is a transport that answers only once its request is
// cancelled, as a server that answers when it sees the client go can
// look to a real transport when the answer wins the race.
type answerOnCancel struct{ closed chan struct{} }

func (a answerOnCancel) RoundTrip(req *http.Request) (*http.Response, error) {
	<-req.Context().Done()
	body := io.NopCloser(strings.NewReader(""))
	return &http.Response{StatusCode: http.StatusOK, Body: closeSignal{body, a.closed}, Request: req}, nil
}

type closeSignal struct {
	io.ReadCloser
	closed chan struct{}
}

func (c closeSignal) Close() error { close(c.closed); return c.ReadCloser.Close() }

// TestHeaderTimeoutLateAnswer: a response that comes back only after the
// deadline passed is the deadline's error, not an empty answer, and its
// body is closed.
func TestHeaderTimeoutLateAnswer(t *testing.T) {
	rt := answerOnCancel{closed: make(chan struct{})}
	client := &http.Client{Transport: HeaderTimeout(rt, 50*time.Millisecond)}
	u := "http://registry.test/.well-known/terraform.json"
	resp, err := client.Get(u)
	if err == nil {
		resp.Body.Close()
	}
	if want := "GET " + u + ": no answer within 50ms"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Get(%q) = %v, want %q", u, err, want)
	}
	select {
	case <-rt.closed:
	default:
		t.Errorf("Get(%q): the late response's body was not closed", u)
	}
}
