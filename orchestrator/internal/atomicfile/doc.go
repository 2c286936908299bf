// Package atomicfile writes files so that a reader, or a process killed
// half-way, never sees half of one: the data goes to a temporary file in the
// same directory, is synced, then renamed over the target.
package atomicfile
