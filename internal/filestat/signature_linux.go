package filestat

import (
	"io/fs"
	"strconv"
	"syscall"
	"time"
)

// Signature is what fi says of the file's content: its size, device and
// inode, modification and change times; changed is its change time. ok
// is false when fi holds no stat.
func Signature(fi fs.FileInfo) (sig string, changed time.Time, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", time.Time{}, false
	}
	b := make([]byte, 0, 96)
	for _, n := range []int64{st.Size, int64(st.Dev), int64(st.Ino), st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec} {
		b = strconv.AppendInt(b, n, 10)
		b = append(b, ' ')
	}
	return string(b), time.Unix(st.Ctim.Sec, st.Ctim.Nsec), true
}
