package tofu

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// alive reports whether process pid runs, and is the process that
// started at start (when start is known: the kernel's start time, from
// procStart). A zombie is not alive: it has exited and waits only to be
// reaped.
func alive(pid int, start string) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	st, state, ok := procStat(pid)
	if !ok {
		return true // no /proc: the signal check is all there is
	}
	if state == "Z" || state == "X" {
		return false
	}
	return start == "" || st == start
}

// procStart returns the kernel's start time of process pid (field 22 of
// /proc/PID/stat, in clock ticks since boot), or "" where there is no
// /proc. With the process ID it identifies one process for the life of the
// machine.
func procStart(pid int) string {
	st, _, _ := procStat(pid)
	return st
}

// procStat reads the start time and the state letter of process pid.
func procStat(pid int) (start, state string, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", "", false
	}
	// The command name, in parentheses, may hold spaces: the fields
	// after it start at the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return "", "", false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 20 {
		return "", "", false
	}
	return string(f[19]), string(f[0]), true
}

// endGroup kills whatever is left of process group pgid once its leader,
// tofu, has exited: provisioners' processes end with their tofu.
func endGroup(pgid int) {
	if pgid > 0 {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}

// groupLeft lists the processes of group pgid that still run (zombies,
// which have exited, are not counted).
func groupLeft(pgid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var left []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(b[i+1:])
		if len(f) < 3 || string(f[0]) == "Z" || string(f[2]) != strconv.Itoa(pgid) {
			continue
		}
		left = append(left, pid)
	}
	return left
}

// RunningIn lists the processes whose working directory is dir: the tofu
// commands strata runs in a stack's workspace, and their children.
func RunningIn(dir string) []int {
	want, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		if err == nil && cwd == want && alive(pid, "") {
			pids = append(pids, pid)
		}
	}
	return pids
}
