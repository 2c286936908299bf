package daemon_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-iac/strata/orchestrator/approval"
	"github.com/strata-iac/strata/orchestrator/daemon"
	"github.com/strata-iac/strata/orchestrator/history"
)

const token = "s3cret-token"

// TestDaemon follows one daemon through what an operator sees: a first
// apply that makes it ready, a failed stack, a held plan approved over the
// API, and an environment that turned invalid.
func TestDaemon(t *testing.T) {
	h := newHarness(t, "layered", token)
	h.start()

	// A first apply installs every stack: ready.
	h.waitPass(1)
	if code, body := do(t, h.handler, "GET", "/readyz", "", ""); code != http.StatusOK || body != "ok\n" {
		t.Fatalf("after the first apply GET /readyz = %d %q, want 200 \"ok\"\nlogs:\n%s", code, body, h.logs.String())
	}
	logs := h.logs.String()
	for _, line := range []string{
		"INFO reconcile #1 of acme/dev started\n",
		"INFO [base] run #1 started",
		"INFO apply acme/dev finished in ",
		"INFO next reconcile in 1h0m0s\n",
	} {
		if !strings.Contains(logs, line) {
			t.Errorf("logs lack %q\nlogs:\n%s", line, logs)
		}
	}

	t.Run("metrics after the first apply", func(t *testing.T) {
		got := scrape(t, h.handler)
		want := map[string]float64{
			`strata_ready`: 1,
			`strata_reconcile_total{client="acme",environment="dev",result="ok"}`:                      1,
			`strata_reconcile_duration_seconds_count{client="acme",environment="dev"}`:                 1,
			`strata_stack_runs_total{client="acme",environment="dev",result="applied",stack="base"}`:   1,
			`strata_stack_runs_total{client="acme",environment="dev",result="applied",stack="report"}`: 1,
			`strata_stack_last_result{client="acme",environment="dev",result="applied",stack="jobs"}`:  1,
			`strata_stack_last_result{client="acme",environment="dev",result="failed",stack="jobs"}`:   0,
			`strata_stack_last_result{client="acme",environment="dev",result="held",stack="jobs"}`:     0,
			`strata_stack_changes{client="acme",environment="dev",kind="add",stack="base"}`:            1,
			`strata_stack_changes{client="acme",environment="dev",kind="change",stack="base"}`:         0,
			`strata_stack_changes{client="acme",environment="dev",kind="destroy",stack="base"}`:        0,
		}
		for series, v := range want {
			if g, ok := got[series]; !ok || g != v {
				t.Errorf("metric %s = %v (present %v), want %v", series, g, ok, v)
			}
		}
		n := 0
		for series := range got {
			if strings.HasPrefix(series, `strata_stack_last_result{`) && strings.Contains(series, `stack="base"`) {
				n++
			}
		}
		if n != len(history.Results) {
			t.Errorf("strata_stack_last_result has %d series for stack base, want one per result (%d)", n, len(history.Results))
		}
	})

	t.Run("status after the first apply", func(t *testing.T) {
		st, body := status(t, h.handler, token)
		if strings.Contains(body, "SENTINEL") {
			t.Errorf("status holds a private contract value:\n%s", body)
		}
		if !st.Ready || st.Interval != "1h0m0s" || st.NextReconcileAt.IsZero() || len(st.Environments) != 1 {
			t.Fatalf("status = %+v, want ready, interval 1h0m0s, a next reconcile and one environment", st)
		}
		e := st.Environments[0]
		if e.Client != "acme" || e.Environment != "dev" || e.Dir != h.dir || e.Reconciles != 1 || e.Running || e.Error != nil ||
			e.LastReconcileAt.IsZero() || e.LastFinishedAt.Before(e.LastReconcileAt) || e.NextReconcileAt.IsZero() {
			t.Errorf("status environment = %+v, want acme/dev of %s, one reconcile finished, no error, times set", e, h.dir)
		}
		got := map[string]string{}
		for _, s := range e.Report.Stacks {
			got[s.Stack] = string(s.Result)
		}
		want := map[string]string{"base": "applied", "net": "applied", "cluster": "applied", "app": "applied", "jobs": "applied", "report": "applied"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("status report results diff (-want +got):\n%s", diff)
		}
	})

	// A failing stack makes it not ready, and says which and why; its
	// dependent is skipped.
	setInit(t, h.root, "jobsFail", `"yes"`)
	if code, body := do(t, h.handler, "POST", "/api/v1/reconcile", token, ""); code != http.StatusAccepted {
		t.Fatalf("POST /api/v1/reconcile = %d %q, want 202", code, body)
	}
	h.waitPass(2)
	code, body := do(t, h.handler, "GET", "/readyz", "", "")
	if code != http.StatusServiceUnavailable {
		t.Fatalf("with jobs failing GET /readyz = %d %q, want 503", code, body)
	}
	lines := strings.Split(strings.TrimSpace(body), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "acme/dev jobs: failed: ") || !strings.Contains(lines[0], "jobs was told to fail") ||
		!strings.HasPrefix(lines[1], "acme/dev report: skipped: ") || !strings.Contains(lines[1], `dependency "jobs"`) {
		t.Errorf("with jobs failing GET /readyz body = %q, want one line for failed jobs and one for skipped report", body)
	}
	got := scrape(t, h.handler)
	for series, v := range map[string]float64{
		`strata_ready`: 0,
		`strata_reconcile_total{client="acme",environment="dev",result="ok"}`:                      2,
		`strata_stack_last_result{client="acme",environment="dev",result="failed",stack="jobs"}`:   1,
		`strata_stack_last_result{client="acme",environment="dev",result="applied",stack="jobs"}`:  0,
		`strata_stack_runs_total{client="acme",environment="dev",result="unchanged",stack="base"}`: 1,
		`strata_stack_runs_total{client="acme",environment="dev",result="failed",stack="jobs"}`:    1,
		`strata_stack_runs_total{client="acme",environment="dev",result="skipped",stack="report"}`: 1,
	} {
		if g := got[series]; g != v {
			t.Errorf("with jobs failing metric %s = %v, want %v", series, g, v)
		}
	}

	// A replace is held: not ready, and the line names the plan.
	setInit(t, h.root, "jobsFail", `"no"`)
	setInit(t, h.root, "appGeneration", `"2"`)
	h.d.Trigger()
	h.waitPass(3)
	st, _ := status(t, h.handler, token)
	held := stackOf(t, st, "app")
	if held.Result != history.ResultHeld || held.PlanID == "" {
		t.Fatalf("after a replace app = %s %q, want held with a plan id\nlogs:\n%s", held.Result, held.PlanID, h.logs.String())
	}
	code, body = do(t, h.handler, "GET", "/readyz", "", "")
	if want := "acme/dev app: held: plan " + held.PlanID + " held for approval: denied by policy: terraform_data.app (deny_delete)"; code != http.StatusServiceUnavailable || !strings.HasPrefix(body, want) ||
		strings.Count(body, "\n") != 1 {
		t.Errorf("with app held GET /readyz = %d %q, want 503 with one line starting %q", code, body, want)
	}

	t.Run("approve", func(t *testing.T) {
		body := func(env, stack, id, reason, by string) string {
			b, _ := json.Marshal(daemon.ApproveRequest{Environment: env, Stack: stack, PlanID: id, Reason: reason, By: by})
			return string(b)
		}
		tests := []struct {
			name     string
			body     string
			wantCode int
			wantBody string
		}{
			{"not json", "{", http.StatusBadRequest, `"error": "approve: read request body`},
			{"unknown field", `{"environment": "acme/dev", "plan": "x"}`, http.StatusBadRequest, `unknown field \"plan\"`},
			{"no reason", body("acme/dev", "app", held.PlanID, " ", "ana"), http.StatusBadRequest, "reason is required"},
			{"no approver", body("acme/dev", "app", held.PlanID, "reviewed", ""), http.StatusBadRequest, "by is required"},
			{"invalid plan id", body("acme/dev", "app", "../../x", "reviewed", "ana"), http.StatusBadRequest, "invalid plan id"},
			{"unknown environment", body("acme/prod", "app", held.PlanID, "reviewed", "ana"), http.StatusNotFound, `no environment \"acme/prod\" in this daemon; it reconciles acme/dev`},
			{"unknown stack", body("acme/dev", "nope", held.PlanID, "reviewed", "ana"), http.StatusNotFound, `has no stack \"nope\"`},
			{"plan not held", body("acme/dev", "app", "plan-0123456789ab", "reviewed", "ana"), http.StatusNotFound, "no held plan; held plans of stack app: " + held.PlanID},
			{"no token", "", http.StatusUnauthorized, "missing bearer token"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				tok := token
				if tt.name == "no token" {
					tok = ""
				}
				code, got := do(t, h.handler, "POST", "/api/v1/approve", tok, tt.body)
				if code != tt.wantCode || !strings.Contains(got, tt.wantBody) {
					t.Errorf("POST /api/v1/approve %s = %d %s, want %d containing %q", tt.body, code, got, tt.wantCode, tt.wantBody)
				}
			})
		}

		// Approved by its directory, the plan is applied by the pass the
		// approval starts.
		code, got := do(t, h.handler, "POST", "/api/v1/approve", token, body(h.dir, "app", held.PlanID, "planned replace, CHG-1", "ana"))
		if code != http.StatusOK {
			t.Fatalf("POST /api/v1/approve = %d %s, want 200", code, got)
		}
		var a approval.Approval
		if err := json.Unmarshal([]byte(got), &a); err != nil || a.By != "ana" || a.PlanID != held.PlanID || a.Client != "acme" || a.Env != "dev" {
			t.Errorf("POST /api/v1/approve = %s (%v), want the approval of %s by ana", got, err, held.PlanID)
		}
		h.waitPass(4)
		st, _ := status(t, h.handler, token)
		if app := stackOf(t, st, "app"); app.Result != history.ResultApplied || app.Summary.Add != 1 || app.Summary.Destroy != 1 {
			t.Errorf("after the approval app = %+v, want applied with 1 added and 1 destroyed\nlogs:\n%s", app, h.logs.String())
		}
		if code, body := do(t, h.handler, "GET", "/readyz", "", ""); code != http.StatusOK {
			t.Errorf("after the approval GET /readyz = %d %q, want 200", code, body)
		}
		if logs := h.logs.String(); !strings.Contains(logs, "plan "+held.PlanID+" was approved by ana") ||
			!strings.Contains(logs, "INFO plan "+held.PlanID+" of acme/dev app approved by ana over the API: planned replace, CHG-1") {
			t.Errorf("after the approval logs do not say who approved:\n%s", logs)
		}
	})

	// An environment that turned invalid keeps its last report, reports its
	// problems, and is tried again.
	if err := os.WriteFile(filepath.Join(h.dir, "services", "app.yaml"), []byte("kind: [unclosed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.d.Trigger()
	h.waitPass(5)
	code, body = do(t, h.handler, "GET", "/readyz", "", "")
	if code != http.StatusServiceUnavailable || !strings.HasPrefix(body, "acme/dev: reconcile failed: 1 problem(s) found: environments/acme/dev/services/app.yaml") {
		t.Errorf("with an invalid environment GET /readyz = %d %q, want 503 naming the file", code, body)
	}
	st, _ = status(t, h.handler, token)
	e := st.Environments[0]
	if e.Error == nil || len(e.Error.Problems) != 1 || e.Error.Problems[0].File != "environments/acme/dev/services/app.yaml" || e.Report == nil {
		t.Errorf("with an invalid environment status = %+v, want its problem and the last report", e)
	}
	if g := scrape(t, h.handler)[`strata_reconcile_total{client="acme",environment="dev",result="error"}`]; g != 1 {
		t.Errorf(`with an invalid environment strata_reconcile_total{result="error"} = %v, want 1`, g)
	}
	if logs := h.logs.String(); !strings.Contains(logs, "ERROR reconcile #5 of acme/dev failed: 1 problem(s) found; the next reconcile tries again\n") ||
		!strings.Contains(logs, "ERROR reconcile #5 of acme/dev: environments/acme/dev/services/app.yaml: ") {
		t.Errorf("with an invalid environment logs do not list the problem:\n%s", logs)
	}
	code, body = do(t, h.handler, "POST", "/api/v1/approve", token,
		`{"environment": "acme/dev", "stack": "app", "planId": "plan-0123456789ab", "reason": "r", "by": "ana"}`)
	if code != http.StatusConflict || !strings.Contains(body, `"problems"`) {
		t.Errorf("with an invalid environment POST /api/v1/approve = %d %s, want 409 with the problems", code, body)
	}
}
