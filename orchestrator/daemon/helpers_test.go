package daemon_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/internal/testrepo"
	"github.com/strata-iac/strata/orchestrator/report"

	"github.com/strata-iac/strata/orchestrator/daemon"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// setInit changes one key of the acme/dev environment's init ConfigMap.
func setInit(t *testing.T, root, key, value string) {
	testrepo.SetInit(t, root, "acme", "dev", key, value)
}

// harness is a daemon over a copy of a fixture, its loop running.
type harness struct {
	t       *testing.T
	root    string
	dir     string
	state   string
	logs    *testkit.Buffer
	d       *daemon.Daemon
	handler http.Handler
	cancel  context.CancelFunc
	done    chan error

	stopOnce sync.Once
	runErr   error
}

// newHarness returns a daemon of the fixture's acme/dev environment whose
// loop has not started. The interval is long: passes after the first are
// triggered.
func newHarness(t *testing.T, fixtureName, token string) *harness {
	t.Helper()
	h := &harness{t: t, root: testrepo.Fixture(t, fixtureName), state: t.TempDir(), logs: &testkit.Buffer{}}
	h.dir = filepath.Join(h.root, "environments", "acme", "dev")
	log := runlog.New(h.logs, nil)
	d, err := daemon.New(daemon.Config{
		Environments: []string{h.dir},
		Interval:     time.Hour,
		Token:        token,
		Logger:       log,
		Pipeline: reconcile.Pipeline{Options: reconcile.Options{
			Tofu: tofutest.Binary(t), StateDir: h.state, MaxRunners: 3, DriftInterval: time.Hour, Logger: log,
			// Stopped, an apply in flight is interrupted at once.
			ShutdownGrace: time.Millisecond,
		}},
	})
	if err != nil {
		t.Fatalf("New() = %v", err)
	}
	h.d, h.handler = d, d.Handler()
	return h
}

// withStage copies the harness's acme/dev environment to acme/stage,
// named stage in its init ConfigMap, and makes the harness's daemon one of
// both, its pipeline made of reconcile's (with 2 runners) by pipeline. It
// returns the directory of acme/stage.
func (h *harness) withStage(pipeline func(reconcile.Pipeline) daemon.Pipeline) string {
	h.t.Helper()
	stage := filepath.Join(h.root, "environments", "acme", "stage")
	testkit.CopyInto(h.t, stage, h.dir)
	testrepo.SetInit(h.t, h.root, "acme", "stage", "environment", "stage")
	log := runlog.New(h.logs, nil)
	d, err := daemon.New(daemon.Config{
		Environments: []string{h.dir, stage},
		Interval:     time.Hour,
		Token:        token,
		Logger:       log,
		Pipeline: pipeline(reconcile.Pipeline{Options: reconcile.Options{
			Tofu: tofutest.Binary(h.t), StateDir: h.state, MaxRunners: 2, DriftInterval: time.Hour, Logger: log,
		}}),
	})
	if err != nil {
		h.t.Fatalf("New() = %v", err)
	}
	h.d, h.handler = d, d.Handler()
	return stage
}

// start runs the loop until the test ends, and checks that it then stops
// cleanly.
func (h *harness) start() {
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel, h.done = cancel, make(chan error, 1)
	go func() { h.done <- h.d.Run(ctx) }()
	h.t.Cleanup(func() {
		if err := h.stop(); err != nil {
			h.t.Errorf("Run() after cancel = %v, want nil", err)
		}
	})
}

// stop cancels the loop and waits for it, a generous while; once stopped,
// it returns what Run returned.
func (h *harness) stop() error {
	h.stopOnce.Do(func() {
		h.cancel()
		select {
		case h.runErr = <-h.done:
		case <-time.After(2 * time.Minute):
			h.t.Fatalf("Run() still running 2m after cancel\nlogs:\n%s", h.logs.String())
		}
	})
	return h.runErr
}

// waitPass waits until the environment's nth reconcile finished and the
// loop waits for the next pass.
func (h *harness) waitPass(n int) daemon.Status {
	h.t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		st := h.d.Status()
		e := st.Environments[0]
		if e.Reconciles >= n && !e.Running && !st.NextReconcileAt.IsZero() {
			return st
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("reconcile #%d not finished after 3m (status %+v)\nlogs:\n%s", n, e, h.logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// do sends a request to the handler and returns the status and body.
func do(t *testing.T, h http.Handler, method, path, token, body string) (int, string) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, r)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w.Code, w.Body.String()
}

// scrape returns every sample of /metrics by its series, as the text
// format writes it: name{label="value",...} with labels sorted by name.
func scrape(t *testing.T, h http.Handler) map[string]float64 {
	t.Helper()
	code, body := do(t, h, "GET", "/metrics", "", "")
	if code != http.StatusOK {
		t.Fatalf("GET /metrics = %d %q, want 200", code, body)
	}
	out := map[string]float64{}
	for _, line := range strings.Split(body, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("GET /metrics line %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}

// status decodes GET /api/v1/status.
func status(t *testing.T, h http.Handler, token string) (daemon.Status, string) {
	t.Helper()
	code, body := do(t, h, "GET", "/api/v1/status", token, "")
	if code != http.StatusOK {
		t.Fatalf("GET /api/v1/status = %d %q, want 200", code, body)
	}
	var st daemon.Status
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatalf("GET /api/v1/status body %q: %v", body, err)
	}
	return st, body
}

// stackOf returns a stack's report from a status.
func stackOf(t *testing.T, st daemon.Status, name string) report.StackReport {
	t.Helper()
	if len(st.Environments) == 0 || st.Environments[0].Report == nil {
		t.Fatalf("status has no report: %+v", st)
	}
	for _, s := range st.Environments[0].Report.Stacks {
		if s.Stack == name {
			return s
		}
	}
	t.Fatalf("report has no stack %s", name)
	return report.StackReport{}
}

// reconcile.Pipeline is the daemon's Pipeline in strata.
var _ daemon.Pipeline = reconcile.Pipeline{}
