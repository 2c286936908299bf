package daemon_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/daemon"
	"github.com/strata-iac/strata/orchestrator/internal/testrepo"
	"github.com/strata-iac/strata/orchestrator/leader"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// unreachableKubeconfig writes a kubeconfig whose API server does not
// answer: a port that was just free.
func unreachableKubeconfig(t *testing.T) string {
	t.Helper()
	addr := testkit.FreeAddr(t)
	path := filepath.Join(t.TempDir(), "kubeconfig")
	kc := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: gone
  cluster: {server: "http://%s"}
contexts:
- name: gone
  context: {cluster: gone, user: nobody, namespace: strata-system}
users:
- name: nobody
  user: {token: none}
current-context: gone
`, addr)
	if err := os.WriteFile(path, []byte(kc), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestNotLeaderIsNotReady runs a daemon whose leader election cannot reach
// its API server: it never leads, so it runs no pass, answers /healthz,
// and /readyz says it is not the leader. It stops cleanly.
func TestNotLeaderIsNotReady(t *testing.T) {
	root := testrepo.Fixture(t, "layered")
	state := t.TempDir()
	var logs testkit.Buffer
	log := runlog.New(&logs, nil)
	e, err := leader.New(leader.Config{Kubeconfig: unreachableKubeconfig(t), Logger: log})
	if err != nil {
		t.Fatalf("leader.New() = %v", err)
	}
	if got, want := e.Lease(), "strata-system/strata"; got != want {
		t.Errorf("Lease() = %q, want %q (the kubeconfig context's namespace)", got, want)
	}
	d, err := daemon.New(daemon.Config{
		Environments: []string{filepath.Join(root, "environments", "acme", "dev")},
		Elector:      e,
		Logger:       log,
		Pipeline:     reconcile.Pipeline{Options: reconcile.Options{Tofu: tofutest.Binary(t), StateDir: state, Logger: log}},
	})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- d.Serve(ctx, ln) }()

	base := "http://" + ln.Addr().String()
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	tests := []struct {
		path     string
		wantCode int
		wantBody string
	}{
		{"/healthz", http.StatusOK, "ok\n"},
		{"/readyz", http.StatusServiceUnavailable, "not the leader (leader: none yet)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if code, body := get(tt.path); code != tt.wantCode || body != tt.wantBody {
				t.Errorf("GET %s = %d %q, want %d %q", tt.path, code, body, tt.wantCode, tt.wantBody)
			}
		})
	}
	// Three retry periods later it still ran nothing.
	time.Sleep(3 * leader.DefaultRetryPeriod)
	if st := d.Status(); st.Environments[0].Reconciles != 0 {
		t.Errorf("Status().Environments[0].Reconciles = %d, want 0: a process that does not lead runs no pass", st.Environments[0].Reconciles)
	}
	if ok, reasons := d.Ready(); ok || len(reasons) != 1 {
		t.Errorf("Ready() = %v %q, want false with one reason", ok, reasons)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve() after cancel = %v, want nil", err)
		}
	case <-time.After(time.Minute):
		t.Fatalf("Serve() still running 1m after cancel\nlogs:\n%s", logs.String())
	}
	if _, err := os.Stat(filepath.Join(state, "history.db")); !os.IsNotExist(err) {
		t.Errorf("Stat(history.db) = %v, want no history: nothing ran", err)
	}
}
