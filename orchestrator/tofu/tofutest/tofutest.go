// Package tofutest finds the real tofu binary for tests.
package tofutest

import (
	"os"
	"os/exec"
	"path/filepath"
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
