package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

func TestReconcileUsage(t *testing.T) {
	env := filepath.Join(repo(t), "environments", "acme", "dev")
	empty := filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"no environment", []string{"reconcile"}, 2, "requires at least 1 arg"},
		{"zero interval", []string{"reconcile", env, "--interval", "0s"}, 2, "--interval must be positive, not 0s"},
		{"json output", []string{"reconcile", env, "-o", "json"}, 2, `unknown output format "json"`},
		{"empty token file", []string{"reconcile", env, "--token-file", empty}, 2, "is empty"},
		{"empty approver token file", []string{"reconcile", env, "--approver-token-file", empty}, 2, "reconcile: --approver-token-file " + empty + " is empty"},
		{"missing token file", []string{"reconcile", env, "--token-file", filepath.Join(t.TempDir(), "nope")}, 1, "read --token-file"},
		{"bad address", []string{"reconcile", env, "--tofu", tofutest.Binary(t), "--listen", "256.0.0.1:1"}, 1, "reconcile: listen on 256.0.0.1:1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := strata(t, tt.args...)
			if code != tt.wantCode || !strings.Contains(errOut, tt.wantErr) {
				t.Errorf("strata %q = %d %q, want %d with %q", tt.args, code, errOut, tt.wantCode, tt.wantErr)
			}
		})
	}

	t.Run("help", func(t *testing.T) {
		out, _, code := strata(t, "reconcile", "--help")
		for _, want := range []string{"--interval", "--listen", "--token-file", "--max-runners", "--drift-interval", "/readyz",
			"A held plan is NOT ready", "strata_stack_last_result", "STRATA_API_TOKEN", "--approver-token-file", "the web view",
			"--leader-elect", "--kubeconfig", "--leader-elect-lease-duration", "not the leader (leader: HOST_PID)"} {
			if code != 0 || !strings.Contains(out, want) {
				t.Errorf("strata reconcile --help = %d, lacks %q:\n%s", code, want, out)
			}
		}
	})
}

// TestReconcileCommand runs the daemon until it is ready, then stops it
// as a signal would, and sees it exit cleanly.
func TestReconcileCommand(t *testing.T) {
	env := filepath.Join(repo(t), "environments", "acme", "dev")
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut testkit.Buffer
	cmd := newRootCommand(&out, &errOut)
	cmd.SetArgs([]string{"reconcile", env, "--tofu", tofutest.Binary(t), "--state-dir", t.TempDir(),
		"--listen", "127.0.0.1:0", "--interval", "1h", "--token-file", tokenFile})
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()

	// The port is the one the log line says it serves on.
	serving := regexp.MustCompile(`INFO serving /healthz, /readyz, /metrics and /api/v1 on (http://127\.0\.0\.1:\d+)\n`)
	var base string
	deadline := time.Now().Add(time.Minute)
	for base == "" {
		if m := serving.FindStringSubmatch(out.String()); m != nil {
			base = m[1]
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("strata reconcile did not say where it serves within 1m\nstdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	get := func(path, token string) (int, string) {
		req, err := http.NewRequest("GET", base+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	deadline = time.Now().Add(3 * time.Minute)
	for {
		code, body := get("/readyz", "")
		if code == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET /readyz = %d %q, want 200 within 3m\nstdout:\n%s", code, body, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if code, body := get("/api/v1/status", "s3cret"); code != http.StatusOK || !strings.Contains(body, `"client": "acme"`) {
		t.Errorf("GET /api/v1/status = %d %q, want 200 with acme's report", code, body)
	}
	if code, _ := get("/api/v1/status", ""); code != http.StatusUnauthorized {
		t.Errorf("GET /api/v1/status without the token = %d, want 401", code)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("strata reconcile after interrupt = %v, want nil (exit code 0)", err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("strata reconcile still running 2m after interrupt")
	}
	logs := out.String()
	for _, line := range []string{"INFO reconcile #1 of acme/dev started\n", "INFO [base] run #1 started", "INFO apply acme/dev finished in ",
		"INFO next reconcile in 1h0m0s\n", "INFO reconcile loop stopped\n"} {
		if !strings.Contains(logs, line) {
			t.Errorf("strata reconcile stdout lacks %q:\n%s", line, logs)
		}
	}
	if errOut.String() != "" {
		t.Errorf("strata reconcile stderr = %q, want nothing", errOut.String())
	}
}
