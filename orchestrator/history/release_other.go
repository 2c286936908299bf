//go:build !linux

package history

// unmapPages does nothing where strata does not release the file's
// mapped pages: the mapping is left to the system.
func unmapPages(addr uintptr, size int64) {}
