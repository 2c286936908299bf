package decryption

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// HelperName is the program strata decrypts with: the sops library lives
// in it, not in strata (see cmd/strata-sops).
const HelperName = "strata-sops"

// EnvHelper names the strata-sops binary to run, in place of the one
// beside strata's executable or on $PATH.
const EnvHelper = "STRATA_SOPS"

// HelperError is strata-sops not found where strata looks for it.
type HelperError struct {
	// Looked says where strata looked, in order.
	Looked []string
}

// Error says where strata looked and how to install the helper.
func (e *HelperError) Error() string {
	return fmt.Sprintf("%s, the program strata decrypts SOPS values with, is not installed: looked for %s; install %s beside strata (`make build` builds both into bin/), or set $%s to it",
		HelperName, strings.Join(e.Looked, ", "), HelperName, EnvHelper)
}

// FindHelper returns the strata-sops to run: $STRATA_SOPS when it is set,
// else strata-sops beside strata's own executable (symbolic links
// resolved), else strata-sops on $PATH. It is a *HelperError when there
// is none.
func FindHelper() (string, error) {
	if p := os.Getenv(EnvHelper); p != "" {
		if _, err := exec.LookPath(p); err != nil {
			return "", &HelperError{Looked: []string{fmt.Sprintf("$%s (%s: %v)", EnvHelper, p, unwrapExec(err))}}
		}
		return p, nil
	}
	looked := []string{"$" + EnvHelper + " (not set)"}
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		p := filepath.Join(filepath.Dir(exe), HelperName)
		if _, err := exec.LookPath(p); err == nil {
			return p, nil
		}
		looked = append(looked, p+" (beside strata)")
	}
	if p, err := exec.LookPath(HelperName); err == nil {
		return p, nil
	}
	return "", &HelperError{Looked: append(looked, "$PATH")}
}

// unwrapExec drops the path os/exec repeats in its errors.
func unwrapExec(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err
	}
	return err
}
