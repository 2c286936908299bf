package filestat

import "time"

// Window is how long before a read a file's change time must be for its
// signature to stand for the content read: a file changed again within
// the same tick of the file system's clock (a few milliseconds) keeps
// its times.
const Window = time.Second

// Racy reports whether a file that changed at changed may have changed
// again, unseen by its stat, around a read that started at start.
func Racy(changed, start time.Time) bool {
	return !changed.Before(start.Add(-Window))
}
