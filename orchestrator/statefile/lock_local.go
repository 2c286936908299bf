package statefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// LocalLockInfo is where tofu's local backend keeps the lock info of the
// state at path: .NAME.lock.info beside it. The lock itself is a POSIX
// record lock on the state file, which the kernel releases when its
// process dies; the info file stays behind after a crash.
func LocalLockInfo(path string) string {
	dir, name := filepath.Split(path)
	return filepath.Join(dir, "."+strings.TrimPrefix(name, ".")+".lock.info")
}

// ReadLocalLock reads the lock of the local state at path. It reports
// false when there is no lock info. Held says whether a process still
// holds the lock (HolderPID, from the kernel); a lock info that no process
// holds was left by a crash.
func ReadLocalLock(path string) (Lock, bool, error) {
	data, err := os.ReadFile(LocalLockInfo(path))
	if errors.Is(err, fs.ErrNotExist) {
		return Lock{}, false, nil
	}
	if err != nil {
		return Lock{}, false, fmt.Errorf("read lock of state %s: %w", path, err)
	}
	l, err := ParseLock(data)
	if err != nil {
		return Lock{}, false, fmt.Errorf("read lock of state %s: %w", path, err)
	}
	l.HolderPID, err = lockHolder(path)
	if err != nil {
		return Lock{}, false, fmt.Errorf("read lock of state %s: %w", path, err)
	}
	l.Held = l.HolderPID != 0
	return l, true, nil
}

// lockHolder asks the kernel which process holds a record lock on the
// file at path (0 when none does).
func lockHolder(path string) (int, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: io.SeekStart}
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_GETLK, &lk); err != nil {
		return 0, err
	}
	if lk.Type == syscall.F_UNLCK {
		return 0, nil
	}
	return int(lk.Pid), nil
}
