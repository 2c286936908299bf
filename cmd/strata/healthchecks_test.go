package main

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// TestRunHealthChecks: spec.healthChecks run after an apply, their
// addresses templated from the stack's outputs. Passing, the apply
// succeeds and says so; a failing check fails the command and the
// report names it, though the apply stands; the next apply plans the
// stack (no changes) only to check again, and once they pass the stack
// is up to date. (The Kustomization substitutes variables, so the
// templates' ${{ are written $${{, Flux's escape.)
func TestRunHealthChecks(t *testing.T) {
	tofuBin := tofutest.Binary(t)
	var down atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/down" && down.Load() {
			http.Error(w, "maintenance", http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	host, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	root := testkit.Copy(t, filepath.Join("..", "..", "orchestrator", "testdata", "runfields"))
	module := filepath.Join(root, "flux-apps", "app", "terraform", "health.tf")
	testkit.WriteFile(t, module, "output \"host\" {\n  value = \""+host+"\"\n}\n\noutput \"port\" {\n  value = "+port+"\n}\n\noutput \"path\" {\n  value = \"/ok\"\n}\n")
	testkit.EditFile(t, root, "flux-apps/app/terraform.yaml", "  # the tests add fields here", `  healthChecks:
    - name: tcpTest
      type: tcp
      address: "$${{.host}}:$${{.port}}"
    - name: httpTest
      type: http
      url: "http://$${{.host}}:$${{.port}}$${{.path}}"
      timeout: 5s`)
	env := filepath.Join(root, "environments", "acme", "dev")
	state := t.TempDir()
	apply := func(wantCode int) (string, stackJSON) {
		t.Helper()
		out, errOut, code := strata(t, "apply", env, "--tofu", tofuBin, "--state-dir", state, "-v")
		if code != wantCode {
			t.Fatalf("strata apply exit code = %d, want %d:\n%s\n%s", code, wantCode, out, errOut)
		}
		js, _, _ := strata(t, "status", env, "--state-dir", state, "-o", "json")
		return out + errOut, lastRunOf(t, js, "app")
	}
	if out, _ := apply(0); !strings.Contains(out, "[app] health checks succeeded (2)") {
		t.Errorf("strata apply = %s, want the health checks passed", out)
	}

	// The path output moves to one that answers 503.
	testkit.EditFile(t, root, "flux-apps/app/terraform/health.tf", `value = "/ok"`, `value = "/down"`)
	down.Store(true)
	out, run := apply(1)
	if !strings.Contains(out, "health check httpTest failed") || !strings.Contains(out, "503") {
		t.Errorf("strata apply with a failing check = %s, want httpTest's failure, with the status", out)
	}
	if run.Result != "applied" || run.HealthCheck == nil || run.HealthCheck.Failed != "httpTest" ||
		run.HealthCheck.Event != "HTTP health check error: httpTest, url: http://${{.host}}:${{.port}}${{.path}}" {
		t.Errorf("the run = %+v, want applied with health check httpTest failed, in the Tofu Controller's event words", run)
	}

	// It answers again: the next apply checks again, with no changes.
	down.Store(false)
	out, run = apply(0)
	if !strings.Contains(out, "health check httpTest failed after run") || !strings.Contains(out, "[app] health checks succeeded (2)") {
		t.Errorf("strata apply after the service recovered = %s, want the checks run again and passed", out)
	}
	if run.Result != "no-changes" || run.HealthCheck == nil || run.HealthCheck.Failed != "" {
		t.Errorf("the run = %+v, want no changes and the checks passed", run)
	}
	if out, _ := apply(0); !strings.Contains(out, "[app] up to date") {
		t.Errorf("strata apply once the checks passed = %s, want app up to date", out)
	}
}

// stackJSON is what TestRunHealthChecks reads of a stack's last run in
// strata status -o json.
type stackJSON struct {
	Result      string `json:"result"`
	HealthCheck *struct {
		Failed, Message, Event string
	} `json:"healthCheck"`
}

func lastRunOf(t *testing.T, statusJSON, stack string) stackJSON {
	t.Helper()
	var doc struct {
		Stacks []struct {
			Stack   string    `json:"stack"`
			LastRun stackJSON `json:"lastRun"`
		} `json:"stacks"`
	}
	if err := json.Unmarshal([]byte(statusJSON), &doc); err != nil {
		t.Fatalf("strata status -o json: %v\n%s", err, statusJSON)
	}
	for _, s := range doc.Stacks {
		if s.Stack == stack {
			return s.LastRun
		}
	}
	t.Fatalf("strata status -o json has no stack %s:\n%s", stack, statusJSON)
	return stackJSON{}
}
