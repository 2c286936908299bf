package main

import (
	"errors"
	"os"
	"testing"
)

// refuseExec stands for syscall.Exec in the tests, which run strata's
// commands in the test's own process: a command that would run
// strata-kube in its place fails instead of replacing the test.
func refuseExec(path string, _, _ []string) error {
	return errors.New("exec " + path + " refused: the command runs in the test's process")
}

func TestMain(m *testing.M) {
	// With STRATA_TEST_MAIN=1 the test binary is strata itself, for the
	// tests that run commands as a shell would (the CI recipes).
	if os.Getenv("STRATA_TEST_MAIN") == "1" {
		os.Exit(run())
	}
	if mode := os.Getenv(envStall); mode != "" {
		os.Exit(stall(mode))
	}
	execProgram = refuseExec
	code := m.Run()
	removeBuilt()
	os.Exit(code)
}
