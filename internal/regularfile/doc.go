// Package regularfile reads files that a repository, or anyone able to
// write one, controls. Opening a named pipe blocks until something writes
// to it, and a device or a socket may never end: a reader given such a
// path would hang the load with no way to stop it. ReadFile opens without
// blocking, reads regular files alone (following symbolic links) and
// reads at most a limit.
package regularfile
