package main

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// TestServeCommand serves the web view of a state directory without
// reconciling: it shows the runs, and approves a held plan as `strata
// approve` does, which the next apply applies. No page holds a sensitive
// output, the value of a SOPS-encrypted Secret, or a Secret's key in a
// stack's environment or backend settings (the sentinels).
func TestServeCommand(t *testing.T) {
	root := repo(t)
	env := filepath.Join(root, "environments", "acme", "dev")
	ageKey := withSOPSSecret(t, root)
	withRunSecrets(t, root)
	state := t.TempDir()
	tofuBin := tofutest.Binary(t)
	apply := func() string {
		t.Helper()
		out, errOut, _ := strata(t, "apply", env, "--tofu", tofuBin, "--state-dir", state, "--drift-interval", "1h", "--sops-age-key-file", ageKey)
		return out + errOut
	}
	apply()
	init := filepath.Join(env, "init.yaml")
	b, err := os.ReadFile(init)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(init, []byte(strings.Replace(string(b), `appGeneration: "1"`, `appGeneration: "2"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	held := regexp.MustCompile(`plan (plan-[0-9a-f]+) held for approval`).FindStringSubmatch(apply())
	if held == nil {
		t.Fatal("the replace of app was not held")
	}
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("only-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut testkit.Buffer
	cmd := newRootCommand(&out, &errOut)
	cmd.SetArgs([]string{"serve", env, "--state-dir", state, "--listen", "127.0.0.1:0", "--token-file", tokenFile, "--sops-age-key-file", ageKey})
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	serving := regexp.MustCompile(`INFO serving the web view on (http://127\.0\.0\.1:\d+)/\n`)
	var base string
	for deadline := time.Now().Add(time.Minute); base == ""; time.Sleep(10 * time.Millisecond) {
		if m := serving.FindStringSubmatch(out.String()); m != nil {
			base = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("strata serve did not say where it serves\nstdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
		}
	}
	const csrf = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(method, path string, form url.Values) (int, string) {
		t.Helper()
		var body io.Reader
		if form != nil {
			form.Set("csrf", csrf)
			body = strings.NewReader(form.Encode())
		}
		req, _ := http.NewRequest(method, base+path, body)
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		req.AddCookie(&http.Cookie{Name: "strata_token", Value: "only-token"})
		req.AddCookie(&http.Cookie{Name: "strata_csrf", Value: csrf})
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s = %v", method, path, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}

	pages := []struct {
		path string
		want string
	}{
		{"/", `aria-label="app in acme/dev: held"`},
		{"/env/acme/dev", `data-stack="base"`},
		{"/stack/acme/dev/base", "INFO [base] run #1 started"},
		{"/stack/acme/dev/app", "1 plan(s) of this stack are held"},
		{"/held", `<button class="primary" type="submit">Approve ` + held[1] + `</button>`},
	}
	for _, p := range pages {
		code, body := do("GET", p.path, nil)
		if code != http.StatusOK || !strings.Contains(body, p.want) {
			t.Errorf("strata serve GET %s = %d, want 200 with %q:\n%s", p.path, code, p.want, body)
		}
		if strings.Contains(body, "SENTINEL") {
			t.Errorf("strata serve GET %s holds the sensitive sentinel", p.path)
		}
	}
	// One token only: it approves too.
	form := url.Values{"environment": {"acme/dev"}, "stack": {"app"}, "planId": {held[1]}, "reason": {"planned replace"}, "by": {"ana"}}
	if code, body := do("POST", "/held/approve", form); code != http.StatusSeeOther {
		t.Fatalf("strata serve POST /held/approve = %d, want 303:\n%s", code, body)
	}
	if got := apply(); !strings.Contains(got, "plan "+held[1]+" was approved by ana") || !strings.Contains(got, "[app] apply complete") {
		t.Errorf("the apply after approving in strata serve did not apply the plan:\n%s", got)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("strata serve after interrupt = %v, want nil", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("strata serve still running 1m after interrupt")
	}
}
