package daemon_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/testkit"
)

// TestServe serves over a real listener while the loop runs, and shuts
// the server down after the loop once cancelled.
func TestServe(t *testing.T) {
	var logs testkit.Buffer
	d := mustNew(t, filepath.Join(t.TempDir(), "environments", "acme", "gone"), &logs)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- d.Serve(ctx, ln) }()

	get := func(path string) (int, string, error) {
		resp, err := http.Get(base + path)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), err
	}
	if code, body, err := get("/healthz"); err != nil || code != http.StatusOK || body != "ok\n" {
		t.Errorf("GET /healthz = %d %q %v, want 200 ok", code, body, err)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		code, body, err := get("/readyz")
		if err == nil && code == http.StatusServiceUnavailable && strings.Contains(body, ": reconcile failed: ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET /readyz = %d %q %v, want 503 with the reconcile's error within 1m", code, body, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	req, _ := http.NewRequest("POST", base+"/api/v1/reconcile", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusAccepted {
		t.Errorf("POST /api/v1/reconcile = %v %v, want 202", resp, err)
	}
	if resp != nil {
		resp.Body.Close()
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve() after cancel = %v, want nil", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Serve() still running 1m after cancel")
	}
	if _, _, err := get("/healthz"); err == nil {
		t.Errorf("GET /healthz after Serve returned succeeded, want the server closed")
	}
	if out := logs.String(); !strings.Contains(out, "serving /healthz, /readyz, /metrics and /api/v1 on "+base+"\n") {
		t.Errorf("logs lack where it serves:\n%s", out)
	}
}
