package helperbin

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Program is a helper program strata runs.
type Program struct {
	// Name is its file name, as make build writes it into bin/.
	Name string
	// Env is the environment variable that names the file to run in
	// place of the one beside strata or on $PATH.
	Env string
	// Does says what strata runs it for, after "the program strata": for
	// example "decrypts SOPS values with".
	Does string
}

// NotFoundError is a helper program not found where strata looks for it.
type NotFoundError struct {
	Program Program
	// Looked says where strata looked, in order.
	Looked []string
}

// Error says where strata looked and how to install the program.
func (e *NotFoundError) Error() string {
	p := e.Program
	return fmt.Sprintf("%s, the program strata %s, is not installed: looked for %s; install %s beside strata (`make build` builds it into bin/ with strata), or set $%s to it",
		p.Name, p.Does, strings.Join(e.Looked, ", "), p.Name, p.Env)
}

// Find returns the file to run: $Env when it is set, else Name beside
// strata's own executable, else Name on $PATH. It is a *NotFoundError when
// there is none.
func (p Program) Find() (string, error) {
	if v := os.Getenv(p.Env); v != "" {
		if _, err := exec.LookPath(v); err != nil {
			return "", &NotFoundError{Program: p, Looked: []string{fmt.Sprintf("$%s (%s: %v)", p.Env, v, unwrapExec(err))}}
		}
		return v, nil
	}
	looked := []string{"$" + p.Env + " (not set)"}
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		beside := filepath.Join(filepath.Dir(exe), p.Name)
		if _, err := exec.LookPath(beside); err == nil {
			return beside, nil
		}
		looked = append(looked, beside+" (beside strata)")
	}
	if path, err := exec.LookPath(p.Name); err == nil {
		return path, nil
	}
	return "", &NotFoundError{Program: p, Looked: append(looked, "$PATH")}
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
