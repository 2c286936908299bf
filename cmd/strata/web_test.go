package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// envScreenshots names the directory the browser test writes its
// screenshots to; `make screenshots` sets it.
const envScreenshots = "STRATA_SCREENSHOTS"

// demoRepo copies the demo environment demo/dev with the stacks' code into
// a temporary repository and returns its root.
func demoRepo(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, dir := range []string{"environments/demo/dev", "flux-apps", "modules"} {
		if err := os.CopyFS(filepath.Join(root, dir), os.DirFS(filepath.Join("..", "..", dir))); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// renameWorker renames the worker stack's resource in the repository's
// copy, so that its next plan deletes the old one: a destroy that policy
// holds.
func renameWorker(t *testing.T, root, from, to string) {
	t.Helper()
	dir := filepath.Join(root, "flux-apps", "service-stacks", "worker", "terraform")
	for _, f := range []string{"main.tf", "outputs.tf"} {
		p := filepath.Join(dir, f)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s := strings.ReplaceAll(string(b), `"terraform_data" "`+from+`"`, `"terraform_data" "`+to+`"`)
		s = strings.ReplaceAll(s, "terraform_data."+from+".", "terraform_data."+to+".")
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// chromium finds Debian's chromium, which `make test-deps` installs.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("chromium is not installed: run make test-deps (apt-get install chromium)")
	return ""
}

// privateValues collects every private value of every contract in the
// local store: none may ever appear in a page.
func privateValues(t *testing.T, state string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(filepath.Join(state, "contracts"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var doc struct {
			Private map[string]any `json:"private"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		for _, v := range doc.Private {
			if s := fmt.Sprint(v); len(s) >= 8 {
				out = append(out, s)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("the demo's contracts hold no private value to look for")
	}
	return out
}

// TestWebViewInBrowser drives a real chromium against a real strata
// reconcile of the demo environment: the fleet, the graph, a stack, and a
// held destroy plan approved by a person, a stale approval refused on the
// way.
func TestWebViewInBrowser(t *testing.T) {
	browser := chromium(t)
	root := demoRepo(t)
	env := filepath.Join(root, "environments", "demo", "dev")
	state := t.TempDir()
	readFile, approveFile := filepath.Join(t.TempDir(), "read"), filepath.Join(t.TempDir(), "approve")
	for f, tok := range map[string]string{readFile: "read-token", approveFile: "approve-token"} {
		if err := os.WriteFile(f, []byte(tok+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut lockedBuffer
	cmd := newRootCommand(&out, &errOut)
	cmd.SetArgs([]string{"reconcile", env, "--tofu", tofutest.Binary(t), "--state-dir", state, "--listen", "127.0.0.1:0",
		"--interval", "1h", "--token-file", readFile, "--approver-token-file", approveFile})
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("strata reconcile after interrupt = %v", err)
			}
		case <-time.After(2 * time.Minute):
			t.Error("strata reconcile still running 2m after interrupt")
		}
	})

	serving := regexp.MustCompile(`INFO serving the web view on (http://127\.0\.0\.1:\d+)/\n`)
	var base string
	for deadline := time.Now().Add(time.Minute); base == ""; time.Sleep(10 * time.Millisecond) {
		if m := serving.FindStringSubmatch(out.String()); m != nil {
			base = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("strata reconcile did not say where it serves the web view\nstdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
		}
	}
	api := func(method, path string) string {
		req, _ := http.NewRequest(method, base+path, nil)
		req.Header.Set("Authorization", "Bearer read-token")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s = %v", method, path, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	// worker waits until a finished pass left the worker stack with the
	// result, and returns its plan id.
	worker := func(result string) string {
		t.Helper()
		for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
			var st struct {
				Environments []struct {
					Running bool
					Report  *struct {
						Stacks []struct{ Stack, Result, PlanID string }
					}
				}
			}
			if err := json.Unmarshal([]byte(api("GET", "/api/v1/status")), &st); err == nil && len(st.Environments) == 1 &&
				!st.Environments[0].Running && st.Environments[0].Report != nil {
				for _, s := range st.Environments[0].Report.Stacks {
					if s.Stack == "worker" && s.Result == result {
						return s.PlanID
					}
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("worker not %s within 3m\nlogs:\n%s", result, out.String())
			}
		}
	}
	worker("applied")
	secrets := privateValues(t, state)

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(browser), chromedp.UserDataDir(t.TempDir()),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1400, 900),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()
	// The first action starts the browser, with no timeout of its own:
	// the browser lives as long as that action's context.
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	// run runs one step of the test, given two minutes.
	run := func(step string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		ctx, cancel := context.WithTimeout(bctx, 2*time.Minute)
		defer cancel()
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatalf("%s: %v\nlogs:\n%s", step, err, out.String())
		}
	}
	value := func(step string, a chromedp.Action[string]) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(bctx, 2*time.Minute)
		defer cancel()
		v, err := chromedp.Run(ctx, a)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		return v
	}

	shots := os.Getenv(envScreenshots)
	if shots != "" {
		if err := os.MkdirAll(shots, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// page checks the page the browser shows: its HTML holds every want
	// and no private value; with screenshots on, it is saved as name.png.
	page := func(name string, wants ...string) string {
		t.Helper()
		url := value("read the location of "+name, chromedp.Location())
		html := value("read page "+name, chromedp.OuterHTML(chromedp.CSS("html")))
		for _, w := range wants {
			if !strings.Contains(html, w) {
				t.Errorf("page %s (%s) lacks %q:\n%s", name, url, w, html)
			}
		}
		for _, s := range secrets {
			if strings.Contains(html, s) {
				t.Errorf("page %s (%s) holds a private contract value", name, url)
			}
		}
		if shots != "" {
			png, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatalf("screenshot %s: %v", name, err)
			}
			if err := os.WriteFile(filepath.Join(shots, name+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return html
	}
	login := func(token string) {
		t.Helper()
		run("log in", chromedp.WaitVisible(chromedp.CSS("#token")), chromedp.SendKeys(chromedp.CSS("#token"), token),
			chromedp.Click(chromedp.CSS(`form.login button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS("header form button")))
	}

	// The fleet, after logging in with the status token.
	run("open the fleet", chromedp.Navigate(base+"/"))
	page("login", "Log in", `type="password"`)
	login("read-token")
	run("see the fleet", chromedp.WaitVisible(chromedp.CSS("table.fleet")))
	fleet := page("fleet", `<a href="/env/demo/dev">demo/dev</a>`)
	for _, stack := range []string{"account", "network", "cluster", "api", "worker"} {
		if !strings.Contains(fleet, `aria-label="`+stack+` in demo/dev: `) {
			t.Errorf("the fleet lacks stack %s:\n%s", stack, fleet)
		}
	}

	// The environment's graph, then a click through to a stack.
	run("open the environment", chromedp.Click(chromedp.CSS(`a[href="/env/demo/dev"]`)), chromedp.WaitVisible(chromedp.CSS("svg.graph")))
	page("environment", `data-stack="network"`, `class="edge dependsOn contract" data-from="account" data-to="network"`)
	run("click network in the graph", chromedp.Click(chromedp.CSS(`svg.graph a[data-stack="network"]`)),
		chromedp.WaitVisible(chromedp.CSS("pre.log")))
	if url := value("read the location", chromedp.Location()); url != base+"/stack/demo/dev/network" {
		t.Errorf("clicking network in the graph opened %s, want %s/stack/demo/dev/network", url, base)
	}
	page("stack", "INFO [network] run #1 started", "Log of run #1", "published contract /configuration/network", "Consumers:")

	// A destroy is held; a reader may see it, not approve it.
	renameWorker(t, root, "worker", "worker_v2")
	api("POST", "/api/v1/reconcile")
	planA := worker("held")
	run("open the held plans", chromedp.Navigate(base+"/held"), chromedp.WaitVisible(chromedp.CSS("article.held")))
	page("held-reader", planA, "delete terraform_data.worker", "create terraform_data.worker_v2", "Approving needs the approver token")

	// Log in again as the approver; the form for plan A is on the page.
	run("log out", chromedp.Click(chromedp.CSS(`header form button`)), chromedp.WaitVisible(chromedp.CSS("#token")))
	login("approve-token")
	run("open the held plans", chromedp.Navigate(base+"/held"), chromedp.WaitVisible(chromedp.CSS(`form.approve`)))
	page("held", planA, "deny_delete", `<button class="primary" type="submit">Approve `+planA+`</button>`)

	// The plan changes while a person types the reason: the page does not
	// refresh under their typing, and approving plan A is refused.
	run("type a reason for plan A", chromedp.SendKeys(chromedp.CSS(`input[name="by"]`), "ana"),
		chromedp.SendKeys(chromedp.CSS(`textarea[name="reason"]`), "reviewed the rename"))
	renameWorker(t, root, "worker_v2", "worker_v3")
	api("POST", "/api/v1/reconcile")
	var planB string
	for deadline := time.Now().Add(3 * time.Minute); planB == "" || planB == planA; time.Sleep(50 * time.Millisecond) {
		planB = worker("held")
		if time.Now().After(deadline) {
			t.Fatalf("no new held plan of worker within 3m\nlogs:\n%s", out.String())
		}
	}
	run("approve the stale plan", chromedp.Click(chromedp.CSS(`form.approve button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS(".refused")))
	page("held-stale", "Approval of "+planA+" refused", "no held plan", "held plans of stack worker: "+planB)

	// Approving the plan that is held: the next pass applies it.
	run("approve the held plan", chromedp.Navigate(base+"/held"), chromedp.WaitVisible(chromedp.CSS(`form[aria-label="Approve `+planB+`"]`)),
		chromedp.SendKeys(chromedp.CSS(`input[name="by"]`), "ana"),
		chromedp.SendKeys(chromedp.CSS(`textarea[name="reason"]`), "planned rename of the queue resource, CHG-42"),
		chromedp.Click(chromedp.CSS(`form.approve button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS(".banner.ok")))
	page("held-approved", "Plan "+planB+" is approved")
	worker("applied")
	run("open the worker", chromedp.Navigate(base+"/stack/demo/dev/worker"), chromedp.WaitVisible(chromedp.CSS("pre.log")))
	page("stack-applied", `<h1>worker <span class="result result-applied">applied</span></h1>`,
		"plan "+planB+" was approved by ana", "terraform_data.worker: destruction complete")
	run("open the fleet again", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("table.fleet")))
	page("fleet-after", `aria-label="worker in demo/dev: applied"`)
}
