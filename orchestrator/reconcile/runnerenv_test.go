package reconcile_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/history"
)

// TestRunnerEnvReachesTofu: spec.runnerPodTemplate.spec.env and envFrom
// are tofu's environment when strata runs a repository: a value, a
// Secret's key and a ConfigMap's keys under a prefix reach tofu's
// TF_VAR_ variables, and the stack's outputs show them. A changed value
// re-plans the stack; the Secret's value reaches no log or report.
func TestRunnerEnvReachesTofu(t *testing.T) {
	e := newFieldsEnv(t)
	testkit.WriteFile(t, filepath.Join(e.root, "flux-apps", "app", "terraform", "env.tf"), `variable "from_value" {
  type    = string
  default = ""
}

variable "from_secret" {
  type      = string
  default   = ""
  sensitive = true
}

variable "from_configmap" {
  type    = string
  default = ""
}

resource "terraform_data" "env" {
  input = [var.from_value, var.from_secret, var.from_configmap]
}

output "from_value" {
  value = var.from_value
}

output "from_secret_sha" {
  value = sha256(nonsensitive(var.from_secret))
}

output "from_configmap" {
  value = var.from_configmap
}
`)
	testkit.WriteFile(t, filepath.Join(e.root, "flux-apps", "app", "settings.yaml"), `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: flux-system
data:
  from_configmap: eu-central-1
`)
	testkit.EditFile(t, e.root, "flux-apps/app/kustomization.yaml", "  - creds.yaml", "  - creds.yaml\n  - settings.yaml")
	fields := `  runnerPodTemplate:
    spec:
      envFrom:
        - prefix: TF_VAR_
          configMapRef: {name: settings}
      env:
        - name: TF_VAR_from_value
          value: plain-$(TF_VAR_from_configmap)
        - name: TF_VAR_from_secret
          valueFrom:
            secretKeyRef: {name: creds, key: token}
`
	e.setFields(fields)
	got, logs := e.apply()
	if got.Result != history.ResultApplied {
		t.Fatalf("apply: app = %+v, want applied\nlogs:\n%s", got, logs)
	}
	doc := readContract(t, e.state, "acme", "dev", "app")
	sum := sha256.Sum256([]byte("SENTINEL-mapped-file"))
	want := map[string]any{
		"from_value":      "plain-eu-central-1",
		"from_configmap":  "eu-central-1",
		"from_secret_sha": hex.EncodeToString(sum[:]),
	}
	for k, v := range want {
		if doc.Public[k] != v {
			t.Errorf("contract app public.%s = %v, want %v", k, doc.Public[k], v)
		}
	}
	b, _ := json.Marshal(got)
	if strings.Contains(logs, "SENTINEL") || strings.Contains(string(b), "SENTINEL") {
		t.Errorf("the Secret's value is in the logs or the report:\n%s\n%s", logs, b)
	}
	if got, logs := e.apply(); got.Result != history.ResultUnchanged {
		t.Errorf("apply again: app = %s (%s), want unchanged\nlogs:\n%s", got.Result, got.Message, logs)
	}
	e.setFields(strings.Replace(fields, "plain-", "changed-", 1))
	if got, logs := e.apply(); got.Result != history.ResultApplied || !strings.Contains(logs, "spec.runnerPodTemplate.spec.env") {
		t.Errorf("apply with a changed env value: app = %s (%s), want applied, naming the field as the cause\nlogs:\n%s", got.Result, got.Message, logs)
	}
	if doc := readContract(t, e.state, "acme", "dev", "app"); doc.Public["from_value"] != "changed-eu-central-1" {
		t.Errorf("contract app public.from_value = %v after the change, want changed-eu-central-1", doc.Public["from_value"])
	}
	if b, err := os.ReadFile(filepath.Join(e.state, "history.db")); err != nil || strings.Contains(string(b), "SENTINEL") {
		t.Errorf("history holds the Secret's value (read: %v)", err)
	}
}
