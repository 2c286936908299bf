//go:build !linux

package filestat

import (
	"io/fs"
	"time"
)

// Signature is false where the stat of a file is not read: callers read
// the content.
func Signature(fs.FileInfo) (string, time.Time, bool) {
	return "", time.Time{}, false
}
