//go:build !kube

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestForwardToKube: the commands and flags only strata-kube has run in
// strata-kube, in this process's place, with the same arguments and
// environment, before anything is done here; every other command runs in
// strata.
func TestForwardToKube(t *testing.T) {
	env := filepath.Join(repo(t), "environments", "acme", "dev")
	kube := filepath.Join(t.TempDir(), "strata-kube")
	if err := os.WriteFile(kube, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(kubeProgram.Env, kube)
	tests := []struct {
		name string
		args []string
		// forwarded is whether strata-kube runs the command.
		forwarded bool
	}{
		{name: "controller", args: []string{"controller", "--namespace", "infra"}, forwarded: true},
		{name: "controller help", args: []string{"controller", "--help"}, forwarded: true},
		{name: "runner", args: []string{"runner", "--request", "r.json"}, forwarded: true},
		{name: "reconcile with leader election", args: []string{"reconcile", env, "--leader-elect"}, forwarded: true},
		{name: "history of a cluster's records", args: []string{"history", env, "--kubeconfig", "kc"}, forwarded: true},
		{name: "approve in a namespace's records", args: []string{"approve", env, "net", "0123abcd", "--namespace", "infra"}, forwarded: true},
		{name: "leader election turned off", args: []string{"reconcile", env, "--leader-elect=false", "--interval", "-1s"}},
		{name: "validate", args: []string{"validate", env}},
		{name: "history of the state directory", args: []string{"history", env}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			execProgram = func(path string, argv, envv []string) error {
				if path != kube {
					t.Errorf("exec(%q), want %q", path, kube)
				}
				if !cmp.Equal(envv, os.Environ()) {
					t.Errorf("exec(%q) environment differs from strata's", path)
				}
				got = argv
				return errors.New("exec recorded")
			}
			defer func() { execProgram = refuseExec }()
			args := os.Args
			os.Args = append([]string{"strata"}, tt.args...)
			defer func() { os.Args = args }()
			_, errOut, code := strata(t, tt.args...)
			if !tt.forwarded {
				if got != nil {
					t.Errorf("strata %q ran strata-kube %q, want it run in strata", tt.args, got)
				}
				return
			}
			if want := append([]string{kube}, tt.args...); !cmp.Equal(got, want) {
				t.Errorf("strata %q ran %q, want %q", tt.args, got, want)
			}
			if code != 2 || !strings.Contains(errOut, "exec recorded") {
				t.Errorf("strata %q with strata-kube failing to start = %d %q, want 2 naming the failure", tt.args, code, errOut)
			}
		})
	}
}

// TestStrataKube runs real binaries: strata runs strata-kube in its
// place for a command only strata-kube has, and without strata-kube says
// where it looked and how to install it.
func TestStrataKube(t *testing.T) {
	if testing.Short() {
		t.Skip("builds strata and strata-kube; skipped with -short")
	}
	dir := t.TempDir()
	strataBin := buildBinary(t, filepath.Join(dir, "strata"), buildTags)
	t.Run("beside strata", func(t *testing.T) {
		buildBinary(t, filepath.Join(dir, kubeProgram.Name), buildTags+" kube")
		t.Setenv(kubeProgram.Env, "")
		out, err := exec.Command(strataBin, "controller", "--help").CombinedOutput()
		if err != nil {
			t.Fatalf("strata controller --help = %v\n%s", err, out)
		}
		for _, want := range []string{"--runners", "--leader-elect", "--runner-job-ttl"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("strata controller --help lacks %q (strata-kube's help):\n%s", want, out)
			}
		}
	})
	t.Run("not installed", func(t *testing.T) {
		alone := filepath.Join(t.TempDir(), "strata")
		if err := os.Link(strataBin, alone); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(alone, "reconcile", ".", "--leader-elect")
		cmd.Env = append(os.Environ(), kubeProgram.Env+"=", "PATH="+t.TempDir())
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Fatalf("strata reconcile --leader-elect without strata-kube = %v, want exit code 2\n%s", err, out)
		}
		for _, want := range []string{"strata reconcile --leader-elect", "strata-kube, the program strata runs cluster mode with, is not installed", "(beside strata)", "make build"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("strata reconcile --leader-elect without strata-kube = %q, want it to say %q", out, want)
			}
		}
	})
}
