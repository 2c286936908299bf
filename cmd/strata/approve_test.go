package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/strata-iac/strata/orchestrator/history"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

func TestApproveAndReview(t *testing.T) {
	root := repo(t)
	env := filepath.Join(root, "environments", "acme", "dev")
	state := t.TempDir()
	run := []string{"--tofu", tofutest.Binary(t), "--state-dir", state}
	if _, errOut, code := strata(t, append([]string{"apply", env}, run...)...); code != 0 {
		t.Fatalf("first apply exit code = %d:\n%s", code, errOut)
	}
	initFile := filepath.Join(env, "init.yaml")
	b, _ := os.ReadFile(initFile)
	os.WriteFile(initFile, []byte(strings.Replace(string(b), `appGeneration: "1"`, `appGeneration: "2"`, 1)), 0o644)

	// The review of the plan, ready for a pull request.
	md, errOut, code := strata(t, append([]string{"plan", env, "-o", "markdown"}, run...)...)
	if code != 0 {
		t.Fatalf("plan -o markdown exit code = %d:\n%s", code, errOut)
	}
	for _, want := range []string{"## strata plan: acme/dev (non-prod)", "| app | services | 1.0.0 | planned | variables | +1 ~0 -1 | held (1 denied) |",
		"### app: planned (variables)", "Variables changed: generation.", "- replace `terraform_data.app`", "- `deny_delete` on `terraform_data.app`: "} {
		if !strings.Contains(md, want) {
			t.Errorf("plan -o markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "INFO") {
		t.Errorf("plan -o markdown has run log lines on stdout:\n%s", md)
	}
	if _, errOut, code := strata(t, append([]string{"plan", env, "--detailed-exitcode"}, run...)...); code != exitChanges {
		t.Errorf("plan --detailed-exitcode with changes pending exit code = %d, want %d:\n%s", code, exitChanges, errOut)
	}

	out, _, code := strata(t, append([]string{"apply", env, "-o", "json"}, run...)...)
	if code != exitHeld {
		t.Fatalf("apply with a held plan exit code = %d, want %d (held for approval)", code, exitHeld)
	}
	var rep struct {
		Stacks []struct {
			Stack, Result, PlanID string
		} `json:"stacks"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("apply -o json = %v:\n%s", err, out)
	}
	var id string
	for _, s := range rep.Stacks {
		if s.Stack == "app" && s.Result == "held" {
			id = s.PlanID
		}
	}
	if !regexp.MustCompile(`^plan-[0-9a-f]{12}$`).MatchString(id) {
		t.Fatalf("apply -o json: app not held with a plan id:\n%s", out)
	}

	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     string
	}{
		{"no reason", []string{"approve", env, "app", id}, 2, "--reason is required"},
		{"unknown stack", []string{"approve", env, "nope", id, "--reason", "x"}, 1, `has no stack "nope"`},
		{"unknown plan lists the held ones", []string{"approve", env, "app", "plan-000000000000", "--reason", "x"}, 1, "held plans of stack app: " + id},
		{"held plan", []string{"approve", env, "app", id, "--reason", "planned replacement", "--by", "ana"}, 0, "approved plan " + id + " of stack app by ana"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := strata(t, append(tt.args, "--state-dir", state)...)
			if code != tt.wantCode || !strings.Contains(out+errOut, tt.want) {
				t.Errorf("strata %q = %d, %q, want %d and %q", tt.args, code, out+errOut, tt.wantCode, tt.want)
			}
		})
	}

	out, _, code = strata(t, append([]string{"apply", env}, run...)...)
	if code != 0 || !regexp.MustCompile(`app\s+services\s+1\.0\.0\s+#\d+\s+applied`).MatchString(out) {
		t.Errorf("apply after approval = %d, want app applied:\n%s", code, out)
	}
}

// TestApproveRemovedStack approves, on the command line, the held destroy
// plan of a stack that left the environment.
func TestApproveRemovedStack(t *testing.T) {
	root := repo(t)
	env := filepath.Join(root, "environments", "acme", "dev")
	state := t.TempDir()
	run := []string{"--tofu", tofutest.Binary(t), "--state-dir", state}
	if _, errOut, code := strata(t, append([]string{"apply", env}, run...)...); code != 0 {
		t.Fatalf("first apply exit code = %d:\n%s", code, errOut)
	}
	if err := os.Remove(filepath.Join(env, "services", "report.yaml")); err != nil {
		t.Fatal(err)
	}
	out, errOut, _ := strata(t, append([]string{"apply", env, "-o", "json"}, run...)...)
	var rep struct {
		Stacks []struct {
			Stack, Result, Cause, PlanID string
		} `json:"stacks"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("apply -o json = %v:\n%s\n%s", err, out, errOut)
	}
	var id string
	for _, s := range rep.Stacks {
		if s.Stack == "report" && s.Result == "held" && s.Cause == "removed" {
			id = s.PlanID
		}
	}
	if id == "" {
		t.Fatalf("apply -o json: the removal of report is not held:\n%s", out)
	}

	// A running reconcile holds the history: approving does not need it.
	holder, err := history.Open(context.Background(), filepath.Join(state, "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := strata(t, "approve", env, "report", id, "--reason", "report is retired", "--by", "ana", "--state-dir", state)
	holder.Close()
	if code != 0 || !strings.Contains(out, "approved plan "+id+" of stack report by ana") {
		t.Fatalf("strata approve of the removed stack = %d, %q %q, want the approval", code, out, errOut)
	}
	out, errOut, code = strata(t, append([]string{"apply", env}, run...)...)
	if code != 0 || !regexp.MustCompile(`report\s+\(removed\)\s+\S+\s+#\d+\s+applied\s+removed\s+\+0 ~0 -1`).MatchString(out) {
		t.Errorf("apply after the approval = %d, want report's removal applied:\n%s\n%s", code, out, errOut)
	}
}
