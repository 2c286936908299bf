package web_test

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/daemon"
	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/internal/testrepo"
	"github.com/strata-iac/strata/orchestrator/reconcile"
	"github.com/strata-iac/strata/orchestrator/report"
	"github.com/strata-iac/strata/orchestrator/runlog"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

const (
	readToken    = "read-token"
	approveToken = "approve-token"
	csrf         = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	policy       = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
		"form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)

// view is a daemon with the web view over the layered fixture, whose base
// stack's sensitive output starts with SENTINEL.
type view struct {
	t       *testing.T
	root    string
	d       *daemon.Daemon
	handler http.Handler
	logs    *testkit.Buffer
}

func newView(t *testing.T) *view {
	t.Helper()
	v := &view{t: t, root: testkit.Copy(t, filepath.Join("..", "testdata", "layered")), logs: &testkit.Buffer{}}
	log := runlog.New(v.logs, nil)
	d, err := daemon.New(daemon.Config{
		Environments: []string{filepath.Join(v.root, "environments", "acme", "dev")},
		Interval:     time.Hour, Token: readToken, ApproverToken: approveToken, WebView: true, Logger: log,
		Pipeline: reconcile.Pipeline{Options: reconcile.Options{Tofu: tofutest.Binary(t), StateDir: t.TempDir(), MaxRunners: 3, DriftInterval: time.Hour, Logger: log}},
	})
	if err != nil {
		t.Fatalf("daemon.New() = %v", err)
	}
	v.d, v.handler = d, d.Handler()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run() after cancel = %v", err)
		}
	})
	return v
}

// waitPass waits until the nth reconcile finished.
func (v *view) waitPass(t *testing.T, n int) daemon.Status {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		st := v.d.Status()
		if e := st.Environments[0]; e.Reconciles >= n && !e.Running && !st.NextReconcileAt.IsZero() {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("reconcile #%d not finished after 3m\nlogs:\n%s", n, v.logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// request is one request to the view.
type request struct {
	method, path string
	token        string
	form         url.Values
	// csrf sends the CSRF cookie and, with a form, its field.
	csrf bool
	// crossSite marks the request as sent by another site.
	crossSite bool
}

func (v *view) do(r request) *httptest.ResponseRecorder {
	v.t.Helper()
	var req *http.Request
	if r.form != nil {
		form := url.Values{}
		for k, vs := range r.form {
			form[k] = vs
		}
		if r.csrf {
			form.Set("csrf", csrf)
		}
		req = httptest.NewRequest(r.method, r.path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		req = httptest.NewRequest(r.method, r.path, nil)
	}
	if r.token != "" {
		req.AddCookie(&http.Cookie{Name: "strata_token", Value: r.token})
	}
	if r.csrf {
		req.AddCookie(&http.Cookie{Name: "strata_csrf", Value: csrf})
	}
	if r.crossSite {
		req.Header.Set("Sec-Fetch-Site", "cross-site")
	}
	w := httptest.NewRecorder()
	v.handler.ServeHTTP(w, req)
	return w
}

func stackResult(t *testing.T, st daemon.Status, name string) report.StackReport {
	t.Helper()
	for _, s := range st.Environments[0].Report.Stacks {
		if s.Stack == name {
			return s
		}
	}
	t.Fatalf("report has no stack %s", name)
	return report.StackReport{}
}

// inline finds inline script, inline style and event handler attributes,
// which the Content-Security-Policy would block.
var inline = regexp.MustCompile(`<script>|<style|\sstyle="|\son[a-z]+="`)

func TestWebView(t *testing.T) {
	v := newView(t)
	v.waitPass(t, 1)
	testrepo.SetInit(t, v.root, "acme", "dev", "appGeneration", `"2"`)
	v.d.Trigger()
	held := stackResult(t, v.waitPass(t, 2), "app")
	if held.Result != history.ResultHeld {
		t.Fatalf("after a replace app = %s, want held\nlogs:\n%s", held.Result, v.logs.String())
	}

	t.Run("every page: policy, no inline script, no sentinel", func(t *testing.T) {
		paths := []string{"/", "/?result=held&class=non-prod&client=acme", "/env/acme/dev", "/held", "/login", "/nope", "/stack/acme/dev/app?run=1"}
		for _, s := range v.d.Status().Environments[0].Report.Stacks {
			paths = append(paths, "/stack/acme/dev/"+s.Stack)
		}
		for _, p := range paths {
			w := v.do(request{method: "GET", path: p, token: readToken})
			body := w.Body.String()
			if want := http.StatusOK; p != "/nope" && w.Code != want {
				t.Errorf("GET %s = %d, want %d:\n%s", p, w.Code, want, body)
			}
			if got := w.Header().Get("Content-Security-Policy"); got != policy {
				t.Errorf("GET %s Content-Security-Policy = %q, want %q", p, got, policy)
			}
			if strings.Contains(body, "SENTINEL") {
				t.Errorf("GET %s holds the sensitive sentinel:\n%s", p, body)
			}
			if inline.MatchString(body) {
				t.Errorf("GET %s has inline script or style:\n%s", p, body)
			}
		}
	})

	t.Run("pages show what ran", func(t *testing.T) {
		tests := []struct {
			path string
			want []string
		}{
			{"/", []string{`<a href="/env/acme/dev">acme/dev</a>`, `aria-label="app in acme/dev: held"`, `<span class="result result-held">held</span>`,
				`aria-label="base in acme/dev: unchanged"`, `<span class="cause">variables</span>`}},
			{"/env/acme/dev", []string{`<a href="/stack/acme/dev/base" data-stack="base" aria-label="base: unchanged">`,
				`<rect class="node result-held"`, `class="edge dependsOn contract" data-from="base" data-to="net"`,
				`class="edge contract" data-from="net" data-to="report"`, `class="edge dependsOn" data-from="jobs" data-to="report"`,
				"History kept: the last 100 runs of each stack and those of the last 14 days, its first run and its last good one, so every run back to "}},
			{"/stack/acme/dev/base?run=1", []string{"Log of run #1", "INFO [base] run #1 started", "published contract /configuration/base",
				"private value(s), never shown here", "<code>/configuration/base</code>"}},
			{"/stack/acme/dev/app", []string{"Log of run #2", "WARN [app] policy: deny_delete denies terraform_data.app", "### app: held",
				"1 plan(s) of this stack are held", "History kept: the last 100 runs of each stack"}},
			{"/held", []string{"deny_delete", "replace terraform_data.app", `name="planId" value="` + held.PlanID + `"`}},
		}
		for _, tt := range tests {
			body := v.do(request{method: "GET", path: tt.path, token: approveToken}).Body.String()
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("GET %s lacks %q:\n%s", tt.path, w, body)
				}
			}
		}
	})

	t.Run("a blocked stack shows why, not as removed", func(t *testing.T) {
		testkit.EditFile(t, v.root, "flux-apps/service-stacks/report/terraform.yaml", "strata.dev/layer: services", "strata.dev/layer: servics")
		defer testkit.EditFile(t, v.root, "flux-apps/service-stacks/report/terraform.yaml", "strata.dev/layer: servics", "strata.dev/layer: services")
		body := v.do(request{method: "GET", path: "/env/acme/dev", token: readToken}).Body.String()
		for _, w := range []string{`<a href="/stack/acme/dev/report">report</a></td><td>(blocked)</td><td><span class="result result-blocked">blocked</span>`,
			`annotation strata.dev/layer is &#34;servics&#34;, which is not a layer`} {
			if !strings.Contains(body, w) {
				t.Errorf("GET /env/acme/dev with report blocked lacks %q:\n%s", w, body)
			}
		}
		if strings.Contains(body, "removed") {
			t.Errorf("GET /env/acme/dev shows a blocked stack as removed:\n%s", body)
		}
	})

	t.Run("access", func(t *testing.T) {
		approve := func(id, reason string) url.Values {
			return url.Values{"environment": {"acme/dev"}, "stack": {"app"}, "planId": {id}, "reason": {reason}, "by": {"ana"}}
		}
		tests := []struct {
			name     string
			req      request
			wantCode int
			want     string
		}{
			{"page without a token", request{method: "GET", path: "/held"}, http.StatusSeeOther, "/login?next=%2Fheld"},
			{"events without a token", request{method: "GET", path: "/events"}, http.StatusUnauthorized, "Log in first"},
			{"wrong token", request{method: "GET", path: "/", token: "guess"}, http.StatusSeeOther, "/login"},
			{"login without csrf", request{method: "POST", path: "/login", form: url.Values{"token": {readToken}}}, http.StatusForbidden, "CSRF"},
			{"login with a wrong token", request{method: "POST", path: "/login", form: url.Values{"token": {"guess"}}, csrf: true}, http.StatusUnauthorized, "neither"},
			{"login", request{method: "POST", path: "/login", form: url.Values{"token": {readToken}, "next": {"//evil.example/"}}, csrf: true}, http.StatusSeeOther, ""},
			{"reader approves", request{method: "POST", path: "/held/approve", token: readToken, form: approve(held.PlanID, "ok"), csrf: true}, http.StatusForbidden, "needs the approver token"},
			{"approve without csrf", request{method: "POST", path: "/held/approve", token: approveToken, form: approve(held.PlanID, "ok")}, http.StatusForbidden, "CSRF"},
			{"approve from another site", request{method: "POST", path: "/held/approve", token: approveToken, form: approve(held.PlanID, "ok"), csrf: true, crossSite: true}, http.StatusForbidden, ""},
			{"approve without a reason", request{method: "POST", path: "/held/approve", token: approveToken, form: approve(held.PlanID, " "), csrf: true}, http.StatusConflict, "the reason is required"},
			{"approve a stale plan", request{method: "POST", path: "/held/approve", token: approveToken, form: approve("plan-0123456789ab", "ok"), csrf: true},
				http.StatusConflict, "no held plan; held plans of stack app: " + held.PlanID},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				w := v.do(tt.req)
				got := w.Body.String() + w.Header().Get("Location")
				if w.Code != tt.wantCode || !strings.Contains(got, tt.want) {
					t.Errorf("%s %s = %d %q, want %d with %q", tt.req.method, tt.req.path, w.Code, got, tt.wantCode, tt.want)
				}
				if tt.name == "login" {
					if loc := w.Header().Get("Location"); loc != "/" {
						t.Errorf("login redirects to %q, want / (never another host)", loc)
					}
					c := w.Result().Cookies()
					if len(c) != 1 || c[0].Name != "strata_token" || !c[0].HttpOnly || c[0].SameSite != http.SameSiteStrictMode {
						t.Errorf("login sets cookies %+v, want strata_token HttpOnly SameSite=Strict", c)
					}
				}
			})
		}
	})

	t.Run("the API approves with the approver token only", func(t *testing.T) {
		for _, tt := range []struct {
			token    string
			wantCode int
		}{{readToken, http.StatusUnauthorized}, {approveToken, http.StatusNotFound}} {
			req := httptest.NewRequest("POST", "/api/v1/approve", strings.NewReader(
				`{"environment": "acme/dev", "stack": "app", "planId": "plan-0123456789ab", "reason": "ok", "by": "ana"}`))
			req.Header.Set("Authorization", "Bearer "+tt.token)
			w := httptest.NewRecorder()
			v.handler.ServeHTTP(w, req)
			if w.Code != tt.wantCode {
				t.Errorf("POST /api/v1/approve with token %q = %d %s, want %d", tt.token, w.Code, w.Body.String(), tt.wantCode)
			}
		}
	})

	t.Run("live updates", func(t *testing.T) {
		srv := httptest.NewServer(v.handler)
		defer srv.Close()
		req, _ := http.NewRequest("GET", srv.URL+"/events", nil)
		req.AddCookie(&http.Cookie{Name: "strata_token", Value: readToken})
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("GET /events = %v", err)
		}
		defer resp.Body.Close()
		if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || ct != "text/event-stream" {
			t.Fatalf("GET /events = %d %s, want 200 text/event-stream", resp.StatusCode, ct)
		}
		lines, stop := make(chan string), make(chan struct{})
		defer close(stop)
		go func() {
			defer close(lines)
			sc := bufio.NewScanner(resp.Body)
			for sc.Scan() {
				select {
				case lines <- sc.Text():
				case <-stop:
					return
				}
			}
		}()
		v.d.Trigger()
		var refresh, logLine bool
		timeout := time.After(2 * time.Minute)
		for !refresh || !logLine {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("GET /events ended; refresh %v, log line %v", refresh, logLine)
				}
				refresh = refresh || l == "event: refresh"
				logLine = logLine || strings.HasPrefix(l, "data: INFO apply acme/dev: 6 stacks")
			case <-timeout:
				t.Fatalf("GET /events during a reconcile: refresh %v, run log line %v after 2m, want both", refresh, logLine)
			}
		}
		v.waitPass(t, 3)
	})

	t.Run("approve through the form, then the next pass applies", func(t *testing.T) {
		form := url.Values{"environment": {"acme/dev"}, "stack": {"app"}, "planId": {held.PlanID}, "reason": {"planned replace"}, "by": {"ana"}}
		n := v.d.Status().Environments[0].Reconciles
		w := v.do(request{method: "POST", path: "/held/approve", token: approveToken, form: form, csrf: true})
		if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/held?approved="+held.PlanID {
			t.Fatalf("POST /held/approve = %d %s %s, want 303 to /held?approved=%s", w.Code, w.Header().Get("Location"), w.Body.String(), held.PlanID)
		}
		if got := stackResult(t, v.waitPass(t, n+1), "app"); got.Result != history.ResultApplied {
			t.Errorf("after the approval app = %s (%s), want applied\nlogs:\n%s", got.Result, got.Message, v.logs.String())
		}
		if body := v.do(request{method: "GET", path: "/held", token: approveToken}).Body.String(); !strings.Contains(body, "No plan is held.") {
			t.Errorf("GET /held after the apply still shows a held plan:\n%s", body)
		}
	})
}
