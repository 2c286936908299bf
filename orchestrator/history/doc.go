// Package history keeps every run of every stack in a bbolt file.
//
// Runs are numbered per stack, from 1. Each is stored as JSON under nested
// buckets client → env → stack, keyed by its number as a big-endian
// uint64, so a cursor walks a stack's runs oldest to newest. A run is
// stored when it begins, as "running", and overwritten when it ends; a run
// still "running" when the file is next opened was cut short by a stopped
// process and is marked "interrupted", so nothing is lost silently.
//
// Result and Operation are strata's one vocabulary for how a run ended and
// what it did: the runner records them, and the report, the daemon's
// /readyz and metrics and the CLI read them. Result answers Converged
// (nothing pending), Ready (converged, or waiting on an upstream by
// design) and Failed. LastGood is the last apply that succeeded, which
// the next run's cause, removed stacks and the versions report all start
// from.
//
// The file is locked by one process at a time; within that process a
// Store is safe for any number of goroutines.
package history
