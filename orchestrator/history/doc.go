// Package history keeps the runs of every stack in a bbolt file, as long
// as a Retention says.
//
// Runs are numbered per stack, from 1. Each is stored as JSON under nested
// buckets client → env → stack, keyed by its number as a big-endian
// uint64, so a cursor walks a stack's runs oldest to newest. A run is
// stored when it begins, as "running", and overwritten when it ends; a run
// still "running" when the file is next opened was cut short by a stopped
// process and is marked "interrupted", so nothing is lost silently.
//
// A run is kept while it is one of its stack's last Retention.Runs runs,
// or younger than Retention.Age (DefaultRetention: 100 runs or 14 days,
// set per environment with Store.Retain); a stack's first run and its
// last good run are always kept. Begin deletes the others in the
// transaction that stores the new run, reading the stack's runs from the
// oldest only as far as the first one kept, and tells the environment's
// gone function of each (its run log goes with it). Expired is the same
// rule over a list of runs, for the shared records (package records).
//
// bbolt reuses the pages of deleted runs and never gives them back to
// the disk; a writer's Open does, when they are more than half of the
// file (and at least 8 MiB): it copies the history into a new file
// (history.db.compact), which it locks, and renames it over the file,
// so that a crash at any point leaves the whole history, in the old file
// or the new one (see compact).
//
// What a reconcile reads costs what it needs, not what the file holds: an
// index in the same file (see indexBucket) names the runs still running
// and each stack's last good run, and holds each stack's Head, all kept
// in the transaction that stores the run. Open reads the index, and the
// runs it names; a reconcile reads each stack's Head (its newest run, its
// newest that is not an unlock and its last good run, as far as a
// reconcile reads them, in a compact encoding) and lists an
// environment's stacks from the heads. The heads lie in chunks of an
// environment's stacks, one bbolt value of up to 16 KiB each, which bbolt
// stores on pages it allocates together: however many transactions wrote
// them, reading every head reads a few contiguous stretches of the file,
// where the runs, or a key per head, lie over the whole file that bbolt
// maps (a transaction writes what it changes to wherever bbolt's freelist
// has room, and the kernel maps the pages around each page read). LastGood
// reads one run; Last, LastMatching and List read the newest runs first
// and stop. A file that a strata without the index, or without the heads
// in chunks, wrote is indexed once, from all its runs, by the next
// writer's Open; until then a reader reads the runs.
//
// Result and Operation are strata's one vocabulary for how a run ended and
// what it did: the runner records them, and the report, the daemon's
// /readyz and metrics and the CLI read them. Result answers Converged
// (nothing pending), Ready (converged, or waiting on an upstream or a
// suspended stack by design) and Failed. LastGood is the last apply that succeeded, which
// the next run's cause, removed stacks and the versions report all start
// from.
//
// The file is locked by one writer at a time; within that process a Store
// is safe for any number of goroutines. When a writer opens the file it
// copies it, consistently, to a snapshot next to it (history.db.snapshot),
// unless the snapshot holds that history already (nothing was written
// since it was made).
// A reader (Open with ReadOnly) never waits for a writer: it takes a shared
// lock on the file, or, while a writer holds it, reads the snapshot, which
// is the history as it was when the writer's reconcile began.
//
// A damaged file never panics: bbolt's panics and errors on a damaged page
// become a CorruptError (ErrCorrupt) that says how to repair it, and Repair
// moves the file aside (history.db.corrupt-<time>) so that a new history
// starts. Nothing else is touched.
package history
