package sopstest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// helperEnv names the strata-sops the tests run (decryption.EnvHelper).
const helperEnv = "STRATA_SOPS"

// startEnv is the environment the test binary started with: go build
// runs with it, as tests change $HOME (and with it go's default build
// cache) to isolate their keys.
var startEnv = os.Environ()

var built struct {
	once sync.Once
	path string
	err  error
}

// Helper makes strata decrypt with a real strata-sops for the rest of the
// test, and returns its path: $STRATA_SOPS when it is set (make test sets
// it to bin/strata-sops), else one built from this checkout with go
// build, once per test binary. It sets $STRATA_SOPS, so the test must not
// be parallel.
func Helper(t testing.TB) string {
	t.Helper()
	if p := os.Getenv(helperEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("$%s: %v: run `make build`, or unset it to build one", helperEnv, err)
		}
		return p
	}
	built.once.Do(func() { built.path, built.err = build() })
	if built.err != nil {
		t.Fatal(built.err)
	}
	t.Setenv(helperEnv, built.path)
	return built.path
}

// build builds cmd/strata-sops of the module the test runs in, into one
// directory per checkout under the temporary directory: a fresh file
// renamed into place, so that test binaries building at once do not
// collide, and repeated runs leave one binary behind, not one each.
func build() (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(root))
	dir := filepath.Join(os.TempDir(), "strata-sopstest-"+hex.EncodeToString(sum[:6]))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "strata-sops")
	cmd := exec.Command("go", "build", "-o", out, "./cmd/strata-sops")
	cmd.Dir = root
	cmd.Env = startEnv
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/strata-sops: %v\n%s", err, b)
	}
	p := filepath.Join(dir, "strata-sops")
	if err := os.Rename(out, p); err != nil {
		return "", err
	}
	return p, nil
}

// moduleRoot walks up from the working directory to the directory with
// go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory: set $%s to a strata-sops binary", helperEnv)
		}
		dir = parent
	}
}
