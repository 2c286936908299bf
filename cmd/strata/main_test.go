package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// repo copies the orchestrator's layered fixture into a temporary
// repository.
func repo(t *testing.T) string {
	t.Helper()
	return testkit.Copy(t, filepath.Join("..", "..", "orchestrator", "testdata", "layered"))
}

// strata runs the command line and returns stdout, stderr and the exit
// code.
func strata(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := newRootCommand(&out, &errOut)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	code := 0
	if err != nil {
		code = 1
		var ex *exitError
		if errors.As(err, &ex) {
			code = ex.code
		}
		errOut.WriteString(err.Error())
	}
	return out.String(), errOut.String(), code
}

func TestCommands(t *testing.T) {
	root := repo(t)
	env := filepath.Join(root, "environments", "acme", "dev")
	state := t.TempDir()
	tofuBin := tofutest.Binary(t)
	broken := repo(t)
	if err := os.WriteFile(filepath.Join(broken, "environments", "acme", "dev", "services", "app.yaml"), []byte("kind: [unclosed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	brokenEnv := filepath.Join(broken, "environments", "acme", "dev")

	tests := []cliCase{
		{"validate", []string{"validate", env}, 0, []string{"acme/dev (non-prod) is valid: 6 stacks in 4 layers"}, nil},
		{"validate reports the file", []string{"validate", brokenEnv}, 1, []string{"environments/acme/dev/services/app.yaml"}, []string{"problem(s) found"}},
		{"validate json", []string{"validate", brokenEnv, "-o", "json"}, 1, []string{`"valid": false`, `"file": "environments/acme/dev/services/app.yaml"`}, nil},
		{"graph text", []string{"graph", env}, 0, []string{"layer account", "← depends on cluster"}, nil},
		{"graph dot", []string{"graph", env, "-o", "dot"}, 0, []string{"digraph"}, nil},
		{"graph mermaid", []string{"graph", env, "-o", "mermaid"}, 0, []string{"flowchart"}, nil},
		{"unknown output", []string{"graph", env, "-o", "yaml"}, 2, nil, []string{`unknown output format "yaml"`}},
		{"missing tofu", []string{"plan", env, "--tofu", filepath.Join(root, "nope")}, 1, nil, []string{"find tofu from --tofu"}},
		{"apply", []string{"apply", env, "--tofu", tofuBin, "--state-dir", state}, 0,
			[]string{"INFO [base] run #1 started", "apply acme/dev finished", "STACK", "/configuration/report"}, nil},
		{"second apply changes nothing", []string{"apply", env, "--tofu", tofuBin, "--state-dir", state}, 0,
			[]string{"INFO [net] up to date: no input changed since run #1", "6 unchanged"}, nil},
		{"status", []string{"status", env, "--state-dir", state}, 0, []string{"#1 apply", "applied", "/configuration/base"}, nil},
	}
	runCases(t, tests)

	t.Run("status json shows no private value", func(t *testing.T) {
		out, _, code := strata(t, "status", env, "--state-dir", state, "-o", "json")
		if code != 0 {
			t.Fatalf("strata status -o json exit code = %d", code)
		}
		var doc struct {
			Stacks []struct {
				Stack   string `json:"stack"`
				LastRun struct {
					Result string `json:"result"`
				} `json:"lastRun"`
				Contract struct {
					Private []string `json:"private"`
				} `json:"contract"`
			} `json:"stacks"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("strata status -o json = %v, want JSON:\n%s", err, out)
		}
		if len(doc.Stacks) != 6 || doc.Stacks[0].Stack != "base" || doc.Stacks[0].LastRun.Result != "applied" {
			t.Errorf("strata status -o json = %+v, want 6 stacks starting with applied base", doc.Stacks)
		}
		if got := doc.Stacks[0].Contract.Private; len(got) != 1 || got[0] != "admin_token" {
			t.Errorf("base contract private keys = %v, want [admin_token]", got)
		}
		if strings.Contains(out, "SENTINEL") {
			t.Errorf("strata status -o json shows a private value:\n%s", out)
		}
	})
}

func TestRelativeStateDir(t *testing.T) {
	root := repo(t)
	env := filepath.Join(root, "environments", "acme", "dev")
	tofuBin := tofutest.Binary(t)
	t.Chdir(t.TempDir())
	out, errOut, code := strata(t, "apply", env, "--tofu", tofuBin, "--state-dir", "st")
	if code != 0 || !strings.Contains(out, "6 applied") {
		t.Errorf("strata apply --state-dir st = %d, want 6 applied:\n%s\n%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join("st", "history.db")); err != nil {
		t.Errorf("relative state dir st has no history: %v", err)
	}
}

func TestVersion(t *testing.T) {
	out, _, code := strata(t, "version", "--tofu", tofutest.Binary(t))
	if code != 0 || !strings.Contains(out, "strata ") || !strings.Contains(out, "OpenTofu v1.10.6") {
		t.Errorf("strata version = %d, %q, want strata's version and OpenTofu v1.10.6", code, out)
	}
}

func TestHistory(t *testing.T) {
	root := repo(t)
	env := filepath.Join(root, "environments", "acme", "dev")
	state := t.TempDir()
	tofuBin := tofutest.Binary(t)
	for i := 0; i < 2; i++ {
		if _, errOut, code := strata(t, "apply", env, "--tofu", tofuBin, "--state-dir", state, "--drift-interval", "0"); code != 0 {
			t.Fatalf("apply exit code = %d:\n%s", code, errOut)
		}
	}
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     []string
	}{
		{"every stack", []string{"history", env}, 0, []string{"STACK", "base", "#2", "no-changes", "#1", "install", "applied", "report"}},
		{"one stack", []string{"history", env, "net", "--limit", "1"}, 0, []string{"net", "#2"}},
		{"json", []string{"history", env, "net", "-o", "json"}, 0, []string{`"number": 2`, `"number": 1`, `"cause": "install"`}},
		{"unknown stack", []string{"history", env, "nope"}, 1, []string{"stack nope of acme/dev has no runs"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := strata(t, append(tt.args, "--state-dir", state)...)
			if code != tt.wantCode {
				t.Errorf("strata %q exit code = %d, want %d:\n%s%s", tt.args, code, tt.wantCode, out, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(out+errOut, w) {
					t.Errorf("strata %q output lacks %q:\n%s%s", tt.args, w, out, errOut)
				}
			}
		})
	}
	if out, _, _ := strata(t, "history", env, "net", "--limit", "1", "--state-dir", state); strings.Contains(out, "#1") {
		t.Errorf("history --limit 1 lists more than the newest run:\n%s", out)
	}
}

// cliCase is one command line and what it must print.
type cliCase struct {
	name     string
	args     []string
	wantCode int
	wantOut  []string
	wantErr  []string
}

// runCases runs each case as a subtest.
func runCases(t *testing.T, tests []cliCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkRun(t, tt.args, tt.wantCode, tt.wantOut, tt.wantErr)
		})
	}
}

// checkRun runs a command line, checks its exit code and the lines wanted
// on stdout and on stderr, and returns what it printed.
func checkRun(t *testing.T, args []string, wantCode int, wantOut, wantErr []string) (string, string) {
	t.Helper()
	out, errOut, code := strata(t, args...)
	if code != wantCode {
		t.Errorf("strata %q exit code = %d, want %d\nstdout:\n%s\nstderr:\n%s", args, code, wantCode, out, errOut)
	}
	for _, w := range wantOut {
		if !strings.Contains(out, w) {
			t.Errorf("strata %q stdout lacks %q:\n%s", args, w, out)
		}
	}
	for _, w := range wantErr {
		if !strings.Contains(errOut, w) {
			t.Errorf("strata %q stderr lacks %q:\n%s", args, w, errOut)
		}
	}
	return out, errOut
}
