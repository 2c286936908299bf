package deadline

import (
	"context"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultKube is Kube until SetKube sets it.
const DefaultKube = 60 * time.Second

// kube is Kube's value, in nanoseconds; 0 is DefaultKube.
var kube atomic.Int64

// Kube is how long a request to a Kubernetes API server may wait for its
// answer to start. The command line sets it (--kube-timeout) before any
// client is made.
func Kube() time.Duration {
	if d := time.Duration(kube.Load()); d > 0 {
		return d
	}
	return DefaultKube
}

// SetKube sets Kube; 0 sets it back to DefaultKube. It returns the value
// it replaced, for a test to put back.
func SetKube(d time.Duration) time.Duration {
	prev := Kube()
	kube.Store(int64(d))
	return prev
}

// HeaderTimeout wraps rt: a request whose response has not started
// within d fails with an *Error naming its method and URL. Once the
// response starts, its body (a list, a watch, a log stream) flows for as
// long as it does, bounded by the request's own context alone.
func HeaderTimeout(rt http.RoundTripper, d time.Duration) http.RoundTripper {
	return &headerTimeout{next: rt, d: d}
}

type headerTimeout struct {
	next http.RoundTripper
	d    time.Duration
}

func (t *headerTimeout) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancelCause(req.Context())
	u := *req.URL
	u.User = nil
	cause := &Error{What: req.Method + " " + u.String(), After: t.d}
	timer := time.AfterFunc(t.d, func() { cancel(cause) })
	resp, err := t.next.RoundTrip(req.WithContext(ctx))
	if !timer.Stop() {
		// The deadline passed first. A transport may still hand back
		// a response that raced the cancel (a server that answers
		// once it sees the client go): it is not an answer in time.
		if err == nil {
			resp.Body.Close()
		}
		cancel(nil)
		return nil, cause
	}
	if err != nil {
		cancel(nil)
		return nil, err
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: func() { cancel(nil) }}
	return resp, nil
}

// cancelOnClose ends a response's context once its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel func()
	once   sync.Once
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.cancel)
	return err
}

// WrapKube is a rest.Config's WrapTransport that bounds each request by
// Kube, after wrap (which may be nil).
func WrapKube(wrap func(http.RoundTripper) http.RoundTripper) func(http.RoundTripper) http.RoundTripper {
	d := Kube()
	return func(rt http.RoundTripper) http.RoundTripper {
		if wrap != nil {
			rt = wrap(rt)
		}
		return HeaderTimeout(rt, d)
	}
}
