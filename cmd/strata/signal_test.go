package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/strata-iac/strata/internal/sopstest"
	"github.com/strata-iac/strata/internal/testkit"
	"github.com/strata-iac/strata/orchestrator/tofu"
	"github.com/strata-iac/strata/orchestrator/tofu/tofutest"
)

// write writes a file under root.
func write(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// busyRepo is a repository on which one phase of a command is long: the
// crash stack with more laid over it.
type busyRepo struct {
	root, env string
	extraEnv  []string
	// ready returns once the command is busy in the phase.
	ready func(t *testing.T, state string, out *bytes.Buffer, started time.Time)
}

// afterAWhile is a phase that a command reaches soon after it starts and
// stays in for seconds.
func afterAWhile(d time.Duration) func(*testing.T, string, *bytes.Buffer, time.Time) {
	return func(_ *testing.T, _ string, _ *bytes.Buffer, started time.Time) {
		time.Sleep(time.Until(started.Add(d)))
	}
}

// untilFile waits for a file to exist.
func untilFile(path string) func(*testing.T, string, *bytes.Buffer, time.Time) {
	return func(t *testing.T, _ string, out *bytes.Buffer, _ time.Time) {
		deadline := time.Now().Add(2 * time.Minute)
		for {
			if _, err := os.Stat(path); err == nil {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s never appeared:\n%s", path, out)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// untilTofu waits for a tofu whose arguments start with verb to run in the
// stack's workspace (or, for an apply, for its first resource to start).
func untilTofu(verb string) func(*testing.T, string, *bytes.Buffer, time.Time) {
	return func(t *testing.T, state string, out *bytes.Buffer, _ time.Time) {
		dir := filepath.Join(state, "work", "acme", "dev", "crash")
		deadline := time.Now().Add(3 * time.Minute)
		for {
			if verb == "apply" {
				if b, _ := os.ReadFile(filepath.Join(dir, tofu.StreamFile)); bytes.Contains(b, []byte(`"apply_start"`)) {
					return
				}
			}
			for _, pid := range tofu.RunningIn(dir) {
				if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil && bytes.Contains(b, []byte("\x00"+verb+"\x00")) {
					time.Sleep(300 * time.Millisecond)
					return
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("tofu %s never ran:\n%s", verb, out)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// crashRepo copies the crash stack, with the init ConfigMap's resources
// count set to n.
func crashRepo(t *testing.T, n int) (root, env string) {
	root = testkit.Copy(t, filepath.Join("testdata", "crash"))
	env = filepath.Join(root, "environments", "acme", "dev")
	write(t, root, "environments/acme/dev/init.yaml", fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: init\n  namespace: flux-system\ndata:\n  clientId: acme\n  environment: dev\n  environmentClass: non-prod\n  resources: \"%d\"\n", n))
	return root, env
}

// manyStacks is a repository of 2,000 stacks: the load is long. Each
// Kustomization sets spec.images, so that each is built by Flux's
// generator and krusty (a plain build, which a targetNamespace no longer
// leaves, takes a tenth of the time: such a load ended before the
// signal).
func manyStacks(t *testing.T) busyRepo {
	root, env := crashRepo(t, 4)
	for i := range 2000 {
		s := fmt.Sprintf("s%04d", i)
		write(t, root, "environments/acme/dev/apps/"+s+".yaml", fmt.Sprintf("apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: %[1]s\n  namespace: flux-system\nspec:\n  interval: 10m\n  path: ./flux-apps/%[1]s\n  prune: true\n  images:\n    - name: strata\n      newTag: v1\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n", s))
		write(t, root, "flux-apps/"+s+"/terraform.yaml", fmt.Sprintf("apiVersion: infra.contrib.fluxcd.io/v1alpha2\nkind: Terraform\nmetadata:\n  name: %[1]s\n  namespace: flux-system\nspec:\n  interval: 10m\n  approvePlan: auto\n  path: ./flux-apps/crash/terraform\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n  vars:\n    - name: resources\n      value: 1\n", s))
	}
	return busyRepo{root: root, env: env, ready: afterAWhile(700 * time.Millisecond)}
}

// manyStacksInGit is manyStacks committed to git, with one stack's
// object changed in the work tree: diff --base HEAD loads both.
func manyStacksInGit(t *testing.T) busyRepo {
	r := manyStacks(t)
	for _, args := range [][]string{{"init", "--quiet", "--initial-branch", "main"}, {"add", "-A"}, {"commit", "--quiet", "-m", "base"}} {
		testkit.Git(t, r.root, args...)
	}
	testkit.EditFile(t, r.root, "flux-apps/s0000/terraform.yaml", "value: 1", "value: 2")
	return r
}

// patchedMaps is a repository whose stack's path holds wide ConfigMaps
// that a patch changes, so that kustomize itself reads each: the render
// is long.
func patchedMaps(t *testing.T) busyRepo {
	root, env := crashRepo(t, 4)
	kust := "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - terraform.yaml\n"
	patches := "patches:\n"
	for m := range 6 {
		var b strings.Builder
		fmt.Fprintf(&b, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: wide-%d\n  namespace: flux-system\ndata:\n", m)
		for i := range 9500 {
			fmt.Fprintf(&b, "  key-%05d: value-%05d\n", i, i)
		}
		write(t, root, fmt.Sprintf("flux-apps/crash/wide-%d.yaml", m), b.String())
		kust += fmt.Sprintf("  - wide-%d.yaml\n", m)
		patches += fmt.Sprintf("  - patch: |\n      apiVersion: v1\n      kind: ConfigMap\n      metadata:\n        name: wide-%d\n        namespace: flux-system\n      data:\n        added: by a patch\n", m)
	}
	write(t, root, "flux-apps/crash/kustomization.yaml", kust+patches)
	return busyRepo{root: root, env: env, ready: afterAWhile(1500 * time.Millisecond)}
}

// stuckDecryption is the SOPS repository with a strata-sops that never
// answers, as one waiting on a key service does: the decryption is long.
func stuckDecryption(t *testing.T) busyRepo {
	root := testkit.Copy(t, filepath.Join("..", "..", "orchestrator", "flux", "testdata", "sops"))
	key := sopstest.NewAgeKey(t)
	sopstest.EncryptFile(t, filepath.Join(root, "secrets", "credentials.yaml"), sopstest.Recipients{Age: []string{key.Recipient}}, sopstest.KubernetesRegex)
	started := filepath.Join(t.TempDir(), "started")
	helper := filepath.Join(t.TempDir(), "strata-sops")
	write(t, filepath.Dir(helper), "strata-sops", fmt.Sprintf("#!/bin/sh\ntouch %q\nexec sleep 600\n", started))
	if err := os.Chmod(helper, 0o755); err != nil {
		t.Fatal(err)
	}
	return busyRepo{root: root, env: filepath.Join(root, "clusters", "dev"), extraEnv: []string{"STRATA_SOPS=" + helper}, ready: untilFile(started)}
}

// bigPlan is the crash stack with 30,000 resources and no provisioner:
// the plan is long.
func bigPlan(t *testing.T) busyRepo {
	root, env := crashRepo(t, 30000)
	write(t, root, "flux-apps/crash/terraform/main.tf", "variable \"resources\" {\n  type = number\n}\n\nresource \"terraform_data\" \"crash\" {\n  count = var.resources\n  input = count.index\n}\n")
	return busyRepo{root: root, env: env, ready: untilTofu("plan")}
}

// slowApply is the crash stack, whose provisioners sleep: the apply is
// long.
func slowApply(t *testing.T) busyRepo {
	root, env := crashRepo(t, 4)
	return busyRepo{root: root, env: env, ready: untilTofu("apply")}
}

// TestStopInEveryPhase sends SIGTERM to a real `strata validate` and a
// real `strata apply` while each is busy in each phase: load, render,
// decrypt, plan and apply. Each must exit within 2 s (the apply within
// its shutdown grace and 2 s), saying it was stopped.
func TestStopInEveryPhase(t *testing.T) {
	bin := buildStrata(t)
	tofuBin := tofutest.Binary(t)
	for _, tc := range []struct {
		name  string
		repo  func(*testing.T) busyRepo
		args  []string
		grace time.Duration
		want  string
	}{
		{"validate while loading", manyStacks, []string{"validate"}, 0, "stopped (terminated signal received)"},
		{"validate while rendering", patchedMaps, []string{"validate"}, 0, "stopped (terminated signal received)"},
		{"validate while decrypting", stuckDecryption, []string{"validate"}, 0, "stopped (terminated signal received)"},
		{"graph while loading", manyStacks, []string{"graph"}, 0, "terminated signal received"},
		{"status while loading", manyStacks, []string{"status"}, 0, "terminated signal received"},
		{"history while loading", manyStacks, []string{"history"}, 0, "terminated signal received"},
		{"versions while loading", manyStacks, []string{"versions"}, 0, "terminated signal received"},
		{"diff --base while loading", manyStacksInGit, []string{"diff", "--base", "HEAD"}, 0, "terminated signal received"},
		{"plan while loading", manyStacks, []string{"plan"}, 0, "terminated signal received"},
		{"apply while loading", manyStacks, []string{"apply"}, 0, "stopped (terminated signal received)"},
		{"apply while rendering", patchedMaps, []string{"apply"}, 0, "stopped (terminated signal received)"},
		{"apply while planning", bigPlan, []string{"apply"}, 0, "interrupted"},
		{"apply while applying", slowApply, []string{"apply", "--shutdown-grace", "1s"}, time.Second, "interrupted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.repo(t)
			state := t.TempDir()
			args := append(append([]string{}, tc.args[0], r.env), tc.args[1:]...)
			switch tc.args[0] {
			case "apply", "plan", "status", "history":
				args = append(args, "--state-dir", state)
			}
			p := startStrata(t, bin, args, append([]string{tofu.EnvBinary + "=" + tofuBin, "STRATA_TEST_CREATES=" + filepath.Join(t.TempDir(), "creates")}, r.extraEnv...))
			cmd, out, started := p.cmd, p.out, p.started
			r.ready(t, state, out, started)
			select {
			case <-p.done:
				t.Fatalf("strata %s ended before the signal, after %v: make its phase longer\n%s", strings.Join(tc.args, " "), time.Since(started), out)
			default:
			}
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			signalled := time.Now()
			p.waitUntil(t, signalled.Add(tc.grace+2*time.Second), fmt.Sprintf("did not exit within %v of SIGTERM", tc.grace+2*time.Second))
			t.Logf("strata %s exited %v after SIGTERM", strings.Join(tc.args, " "), time.Since(signalled))
			// Stopped before any tofu ran: the exit code of SIGTERM.
			wantCode := 143
			if tc.want == "interrupted" {
				wantCode = exitFailed
			}
			if code := cmd.ProcessState.ExitCode(); code != wantCode {
				t.Errorf("strata %s stopped exited %d, want %d\n%s", strings.Join(tc.args, " "), code, wantCode, out)
			}
			if tc.args[0] == "diff" {
				// The base's checkout is gone, and git's record of it.
				list, err := exec.Command("git", "-C", r.root, "worktree", "list", "--porcelain").Output()
				if n := strings.Count(string(list), "worktree "); err != nil || n != 1 {
					t.Errorf("git worktree list after the stopped diff = %q, %v, want the repository's own work tree alone", list, err)
				}
			}
			// A read-only command (diff's checkout is removed all the
			// same) that had not returned readOnlyGrace after the signal
			// was ended by strata, saying so.
			forced := fmt.Sprintf("strata %s: interrupted by SIGTERM", strings.Join(args, " "))
			if strings.Contains(out.String(), forced) && isReadOnly(newRootCommand(io.Discard, io.Discard), args) {
				t.Logf("strata %s did not return by itself within %v: strata ended it", strings.Join(tc.args, " "), readOnlyGrace)
			} else if !strings.Contains(out.String(), tc.want) {
				t.Errorf("strata %s stopped said:\n%s\nwant it to say %q", strings.Join(tc.args, " "), out, tc.want)
			}
		})
	}
}
