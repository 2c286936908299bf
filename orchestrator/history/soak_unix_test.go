//go:build unix

package history

import (
	"io/fs"
	"syscall"
)

// diskSize is the blocks a file takes on the disk, its size when the
// system does not say.
func diskSize(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Blocks * 512
	}
	return fi.Size()
}
