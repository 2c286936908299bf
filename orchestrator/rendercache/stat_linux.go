package rendercache

import (
	"io/fs"
	"strconv"
	"syscall"
	"time"
)

// statOf is what a manifest's stat says of its content without reading
// it: its size, device and inode, modification and change times, and
// its change time alone, for the racy check (see racyWindow). ok is
// false when fi holds no stat.
func statOf(fi fs.FileInfo) (sig string, changed time.Time, ok bool) {
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
