package tofu

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// EnvBinary is the environment variable that names the tofu binary.
const EnvBinary = "STRATA_TOFU"

// ErrNotFound is returned by Find when no tofu binary is found anywhere.
var ErrNotFound = errors.New("tofu not found: pass --tofu PATH, set " + EnvBinary +
	", put tofu on PATH, or run `make tofu` to build OpenTofu into bin/tofu")

// Find locates the tofu binary: the flag value first, then $STRATA_TOFU,
// then "tofu" on PATH, then bin/tofu under the working directory, then tofu
// beside the strata executable. A path given explicitly must exist.
func Find(flag string) (string, error) {
	for _, explicit := range []struct{ from, path string }{
		{"--tofu", flag},
		{EnvBinary, os.Getenv(EnvBinary)},
	} {
		if explicit.path == "" {
			continue
		}
		p, err := executable(explicit.path)
		if err != nil {
			return "", fmt.Errorf("find tofu from %s: %w", explicit.from, err)
		}
		return p, nil
	}
	if p, err := exec.LookPath("tofu"); err == nil {
		return filepath.Abs(p)
	}
	candidates := []string{filepath.Join("bin", "tofu")}
	if self, err := os.Executable(); err == nil {
		candidates = append(candidates, filepath.Join(filepath.Dir(self), "tofu"))
	}
	for _, c := range candidates {
		if p, err := executable(c); err == nil {
			return p, nil
		}
	}
	return "", ErrNotFound
}

func executable(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", err
	}
	if fi.IsDir() || fi.Mode()&0o111 == 0 {
		return "", fmt.Errorf("%s is not an executable file", abs)
	}
	return abs, nil
}
