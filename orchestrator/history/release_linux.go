package history

import "golang.org/x/sys/unix"

// unmapPages drops the pages of the size bytes mapped at addr from the
// process's resident memory: the file's mapping is shared and read-only,
// so the next read finds the same bytes, from the page cache or the file
// (madvise(2), MADV_DONTNEED). It is advice: an error changes nothing.
func unmapPages(addr uintptr, size int64) {
	if addr == 0 || size <= 0 {
		return
	}
	_, _, _ = unix.Syscall(unix.SYS_MADVISE, addr, uintptr(size), unix.MADV_DONTNEED)
}
