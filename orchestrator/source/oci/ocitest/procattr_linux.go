package ocitest

import "syscall"

// procAttr ends the registry when the test process dies without running
// its cleanups, so no registry outlives a killed test run.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
