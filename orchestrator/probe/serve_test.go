package probe

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
)

func TestServe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, func() (string, error) { return "follows pod-a_1", nil }) }()

	resp, err := http.Get("http://" + ln.Addr().String() + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(body) != "follows pod-a_1\n" {
		t.Errorf("GET /readyz = %d %q, want 200 %q", resp.StatusCode, body, "follows pod-a_1\n")
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve() after its context ended = %v, want nil", err)
	}
	if _, err := http.Get("http://" + ln.Addr().String() + "/healthz"); err == nil {
		t.Errorf("GET /healthz after Serve returned = no error, want the server closed")
	}
}
