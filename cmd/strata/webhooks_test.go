package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// TestRunWebhooks: spec.webhooks judge a plan with changes before the
// policy, as the Tofu Controller's post-planning webhooks: each enabled
// one is posted, in order, its payload as payloadType says; one whose
// testExpression renders false fails the stack with its
// errorMessageTemplate, rendered, and nothing is applied; once it passes
// the plan applies. A disabled webhook is never called.
func TestRunWebhooks(t *testing.T) {
	tofuBin := tofutest.Binary(t)
	var (
		mu       sync.Mutex
		payloads = map[string]map[string]any{}
		fail     atomic.Bool
	)
	fail.Store(true)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "want JSON", http.StatusUnsupportedMediaType)
			return
		}
		var p map[string]any
		if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		payloads[r.URL.Path] = p
		mu.Unlock()
		passed := r.URL.Path != "/terraform/admission/fail" || !fail.Load()
		violations := []any{}
		if !passed {
			violations = append(violations, map[string]any{"message": "Max nodes count in GCP in terraform app (1 occurrences)"})
		}
		json.NewEncoder(w).Encode(map[string]any{"passed": passed, "violations": violations})
	}))
	t.Cleanup(srv.Close)
	root := testkit.Copy(t, filepath.Join("..", "..", "orchestrator", "testdata", "runfields"))
	// The Kustomization substitutes variables: the templates' ${{ are
	// written $${{, Flux's escape.
	testkit.EditFile(t, root, "flux-apps/app/terraform.yaml", "  # the tests add fields here", `  webhooks:
    - stage: post-planning
      url: `+srv.URL+`/terraform/admission/pass
      testExpression: "$${{ .passed }}"
      errorMessageTemplate: "SHOULD PASS Violation: $${{ (index .violations 0).message }}"
    - stage: post-planning
      url: `+srv.URL+`/terraform/admission/spec
      payloadType: SpecOnly
      testExpression: "$${{ .passed }}"
    - stage: post-planning
      url: `+srv.URL+`/terraform/admission/plan
      payloadType: PlanOnly
      testExpression: "$${{ .passed }}"
    - stage: post-planning
      url: `+srv.URL+`/terraform/admission/fail
      testExpression: "$${{ .passed }}"
      errorMessageTemplate: "SHOULD FAIL Violation: $${{ (index .violations 0).message }}"
    - stage: post-planning
      enabled: false
      url: `+srv.URL+`/terraform/admission/disabled
      testExpression: "$${{ .passed }}"`)
	env := filepath.Join(root, "environments", "acme", "dev")
	state := t.TempDir()
	apply := []string{"apply", env, "--tofu", tofuBin, "--state-dir", state}
	out, errOut, code := strata(t, apply...)
	if code != 1 || !strings.Contains(out+errOut, "SHOULD FAIL Violation: Max nodes count in GCP in terraform app (1 occurrences)") {
		t.Fatalf("strata apply with a refusing webhook exit code = %d, want 1 and the rendered message:\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(out+errOut, "[app] apply complete") {
		t.Errorf("strata apply applied a plan a webhook refused:\n%s", out)
	}
	js, _, _ := strata(t, "status", env, "--state-dir", state, "-o", "json")
	if !strings.Contains(js, `"webhook": "`+srv.URL+`/terraform/admission/fail"`) {
		t.Errorf("strata status -o json = %s, want the run to name the webhook that refused it", js)
	}
	mu.Lock()
	if p := payloads["/terraform/admission/pass"]; p["kind"] != "Terraform" || p["status"].(map[string]any)["tfplan"].(map[string]any)["resource_changes"] == nil {
		t.Errorf("SpecAndPlan payload = %v, want the object with the plan as status.tfplan", p)
	}
	if p := payloads["/terraform/admission/spec"]; p["kind"] != "Terraform" || p["spec"] == nil || p["status"] != nil {
		t.Errorf("SpecOnly payload = %v, want the object without a status", p)
	}
	if p := payloads["/terraform/admission/plan"]; p["format_version"] == nil || p["kind"] != nil {
		t.Errorf("PlanOnly payload = %v, want the plan alone", p)
	}
	if _, ok := payloads["/terraform/admission/disabled"]; ok {
		t.Error("the disabled webhook was called")
	}
	mu.Unlock()
	statePath := filepath.Join(state, "state", "acme", "dev", "app.tfstate")
	if b, _ := os.ReadFile(statePath); strings.Contains(string(b), "terraform_data") {
		t.Error("the state holds resources of a plan a webhook refused")
	}

	fail.Store(false)
	if out, errOut, code := strata(t, apply...); code != 0 || !strings.Contains(out+errOut, "[app] apply complete") {
		t.Errorf("strata apply once every webhook passes exit code = %d, want app applied:\n%s\n%s", code, out, errOut)
	}
	if b, err := os.ReadFile(statePath); err != nil || !strings.Contains(string(b), "terraform_data") {
		t.Errorf("state %s after the apply: %v, want its resources", statePath, err)
	}
}
