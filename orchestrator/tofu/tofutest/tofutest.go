package tofutest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Binary returns the tofu binary the tests run: $STRATA_TOFU, else bin/tofu
// at the module root, else tofu on PATH. It fails the test, saying how to
// build one, when there is none: tests never fake tofu. With -short it
// skips the test instead: the fast loop (make test-unit) runs no tofu.
func Binary(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs tofu; skipped with -short")
	}
	if p := os.Getenv("STRATA_TOFU"); p != "" {
		return p
	}
	if root, ok := moduleRoot(); ok {
		p := filepath.Join(root, "bin", "tofu")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("tofu"); err == nil {
		return p
	}
	t.Fatal("tofu not found: run `make tofu` (builds OpenTofu into bin/tofu) or set STRATA_TOFU")
	return ""
}

// moduleRoot walks up from the working directory to the directory with
// go.mod.
func moduleRoot() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// Recording returns a tofu that appends the arguments of each command it
// runs, one line per command, to the returned log, then runs the real
// tofu (Binary): the tests see the flags strata passes, and tofu still
// does the work.
func Recording(t testing.TB) (bin, log string) {
	t.Helper()
	real := Binary(t)
	dir := t.TempDir()
	bin, log = filepath.Join(dir, "tofu"), filepath.Join(dir, "argv.log")
	script := fmt.Sprintf("#!/bin/sh\necho \"$*\" >> %q\nexec %q \"$@\"\n", log, real)
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, log
}

// Commands returns the arguments of every command a Recording tofu ran
// whose first argument is verb, in order.
func Commands(t testing.TB, log, verb string) [][]string {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for _, line := range strings.Split(string(b), "\n") {
		if args := strings.Fields(line); len(args) > 0 && args[0] == verb {
			out = append(out, args)
		}
	}
	return out
}
