package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"sigs.k8s.io/yaml"
)

// recipesFile is the page of the CI recipes, whose every command the
// tests run.
const recipesFile = "../../docs/ci-recipes.md"

// recipes are the YAML blocks of docs/ci-recipes.md: the GitHub Actions
// workflow, then the GitLab CI job.
func recipes(t *testing.T) (github, gitlab string) {
	t.Helper()
	b, err := os.ReadFile(recipesFile)
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(b), -1)
	if len(blocks) != 2 {
		t.Fatalf("%s has %d yaml blocks, want 2: the GitHub Actions workflow and the GitLab CI job", recipesFile, len(blocks))
	}
	return blocks[0][1], blocks[1][1]
}

// comments is a stand-in for the GitHub and GitLab APIs on loopback: it
// keeps each comment posted, by path, and checks the token.
type comments struct {
	mu    sync.Mutex
	posts map[string]string
}

func (c *comments) serve(t *testing.T) *httptest.Server {
	c.posts = map[string]string{}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var text string
		switch {
		case r.Method != http.MethodPost:
			http.Error(w, "post only", http.StatusMethodNotAllowed)
			return
		case r.Header.Get("Authorization") == "Bearer gh-token":
			var doc struct {
				Body string `json:"body"`
			}
			if err := json.Unmarshal(body, &doc); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			text = doc.Body
		case r.Header.Get("PRIVATE-TOKEN") == "gl-token":
			form, err := url.ParseQuery(string(body))
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			text = form.Get("body")
		default:
			http.Error(w, "bad token", http.StatusUnauthorized)
			return
		}
		c.mu.Lock()
		c.posts[r.URL.Path] = text
		c.mu.Unlock()
		w.WriteHeader(http.StatusCreated)
		fmt.Fprint(w, `{"id":1}`)
	}))
}

func (c *comments) get(path string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.posts[path]
	return s, ok
}

// shellEnv is the environment the recipes' commands run with: strata (this
// test binary, as strata) and tofu first on PATH.
func shellEnv(t *testing.T, f *fleet) []string {
	t.Helper()
	bin := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	wrapper := fmt.Sprintf("#!/bin/sh\nSTRATA_TEST_MAIN=1 exec %q \"$@\"\n", self)
	if err := os.WriteFile(filepath.Join(bin, "strata"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(f.tofu, filepath.Join(bin, "tofu")); err != nil {
		t.Fatal(err)
	}
	return append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		// The state the plans read: the test's applied base.
		"STRATA_FLAGS=--state-dir "+f.state)
}

// runShell runs a recipe's script as the CI runs it: bash, stopping at the
// first command that fails.
func runShell(t *testing.T, dir string, env []string, script string) (string, int) {
	t.Helper()
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ex *exec.ExitError
	switch {
	case err == nil:
		return out.String(), 0
	case errorsAs(err, &ex):
		return out.String(), ex.ExitCode()
	}
	t.Fatalf("run %q: %v", script, err)
	return "", 0
}

func errorsAs(err error, ex **exec.ExitError) bool {
	e, ok := err.(*exec.ExitError)
	*ex = e
	return ok
}

// githubSteps runs the workflow's job as GitHub Actions would: each run
// step in order with the job's and the step's env (an expression's value
// given by the test), stopping at the first that fails. It returns the
// exit code of the last step run.
func githubSteps(t *testing.T, f *fleet, workflow string, env []string, expr map[string]string) (string, int) {
	t.Helper()
	var wf struct {
		Jobs map[string]struct {
			Env   map[string]string `json:"env"`
			Steps []struct {
				Name string            `json:"name"`
				Uses string            `json:"uses"`
				With map[string]any    `json:"with"`
				Env  map[string]string `json:"env"`
				Run  string            `json:"run"`
			} `json:"steps"`
		} `json:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(workflow), &wf); err != nil {
		t.Fatalf("the GitHub Actions recipe: %v", err)
	}
	job, ok := wf.Jobs["review"]
	if !ok {
		t.Fatalf("the GitHub Actions recipe has no job review")
	}
	var log strings.Builder
	ran := 0
	for _, s := range job.Steps {
		if strings.HasPrefix(s.Uses, "actions/checkout@") && fmt.Sprint(s.With["fetch-depth"]) != "0" {
			t.Errorf("the GitHub Actions recipe checks out with fetch-depth %v, want 0: the base needs the history", s.With["fetch-depth"])
		}
		if s.Run == "" {
			continue
		}
		stepEnv := slicesClone(env)
		for _, vars := range []map[string]string{job.Env, s.Env} {
			for k, v := range vars {
				if strings.Contains(v, "${{") {
					w, ok := expr[k]
					if !ok {
						t.Fatalf("the GitHub Actions recipe's %s = %q: the test gives it no value", k, v)
					}
					v = w
				}
				if k == "STRATA_FLAGS" {
					continue // the test's state
				}
				stepEnv = append(stepEnv, k+"="+v)
			}
		}
		out, code := runShell(t, f.root, stepEnv, s.Run)
		ran++
		fmt.Fprintf(&log, "== %s (exit %d)\n%s", s.Name, code, out)
		if code != 0 {
			return log.String(), code
		}
	}
	if ran < 2 {
		t.Errorf("the GitHub Actions recipe ran %d steps, want at least 2", ran)
	}
	return log.String(), 0
}

// gitlabJob runs the job's script as GitLab CI does: one shell, each line
// in turn, stopping at the first that fails.
func gitlabJob(t *testing.T, f *fleet, job string, env []string) (string, int) {
	t.Helper()
	var doc map[string]struct {
		Variables map[string]any `json:"variables"`
		Script    []string       `json:"script"`
	}
	if err := yaml.Unmarshal([]byte(job), &doc); err != nil {
		t.Fatalf("the GitLab CI recipe: %v", err)
	}
	j, ok := doc["strata-review"]
	if !ok || len(j.Script) == 0 {
		t.Fatalf("the GitLab CI recipe has no job strata-review with a script")
	}
	if fmt.Sprint(j.Variables["GIT_DEPTH"]) != "0" {
		t.Errorf("the GitLab CI recipe's GIT_DEPTH = %v, want 0: the base needs the history", j.Variables["GIT_DEPTH"])
	}
	return runShell(t, f.root, env, strings.Join(j.Script, "\n"))
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

// testCIRecipes runs every command of both recipes on two pull requests
// of the fleet: one whose plans pass, one that breaks a contract.
func testCIRecipes(t *testing.T, f *fleet) {
	github, gitlab := recipes(t)
	var api comments
	srv := api.serve(t)
	defer srv.Close()
	env := shellEnv(t, f)
	tests := []struct {
		branch   string
		wantCode int
		want     string
	}{
		{"bump", exitConverged, "| acme/dev | app | version 0.1.0 → 0.2.0 | planned | +0 ~1 -0 | allowed |"},
		{"contract-break", exitHeld, "Held with cause `contract-break`: it breaks"},
	}
	for _, tt := range tests {
		t.Run(tt.branch, func(t *testing.T) {
			f.git("checkout", "--quiet", tt.branch)
			t.Run("github actions", func(t *testing.T) {
				_ = os.Remove(filepath.Join(f.root, "review.md"))
				ghEnv := append(slicesClone(env), "GITHUB_BASE_REF=main", "GITHUB_API_URL="+srv.URL, "GITHUB_REPOSITORY=acme/fleet")
				out, code := githubSteps(t, f, github, ghEnv, map[string]string{"GH_TOKEN": "gh-token", "PR_NUMBER": "7"})
				if code != tt.wantCode {
					t.Errorf("the GitHub Actions recipe exit code = %d, want %d\n%s", code, tt.wantCode, out)
				}
				checkPosted(t, f, &api, "/repos/acme/fleet/issues/7/comments", tt.want, out)
			})
			t.Run("gitlab ci", func(t *testing.T) {
				_ = os.Remove(filepath.Join(f.root, "review.md"))
				glEnv := append(slicesClone(env), "CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main", "CI_API_V4_URL="+srv.URL+"/api/v4",
					"CI_PROJECT_ID=42", "CI_MERGE_REQUEST_IID=9", "STRATA_REVIEW_TOKEN=gl-token")
				out, code := gitlabJob(t, f, gitlab, glEnv)
				if code != tt.wantCode {
					t.Errorf("the GitLab CI recipe exit code = %d, want %d\n%s", code, tt.wantCode, out)
				}
				checkPosted(t, f, &api, "/api/v4/projects/42/merge_requests/9/notes", tt.want, out)
			})
		})
	}
	f.git("checkout", "--quiet", "--", ".")
	f.git("clean", "--quiet", "-f")
}

// checkPosted checks that the comment posted at path is review.md as
// plan wrote it, and says what is wanted.
func checkPosted(t *testing.T, f *fleet, api *comments, path, want, log string) {
	t.Helper()
	posted, ok := api.get(path)
	if !ok {
		t.Fatalf("no comment was posted to %s\n%s", path, log)
	}
	file, err := os.ReadFile(filepath.Join(f.root, "review.md"))
	if err != nil {
		t.Fatal(err)
	}
	if posted != string(file) {
		t.Errorf("the comment posted to %s is not review.md:\n%s", path, posted)
	}
	if !strings.Contains(posted, want) {
		t.Errorf("the comment posted to %s lacks %q:\n%s", path, want, posted)
	}
}
