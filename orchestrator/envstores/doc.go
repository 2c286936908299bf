// Package envstores opens an environment's stores: its history of runs
// and its held plans where its Records keep them, and its contract store
// where its settings say.
//
// In: the environment and its settings, and Records: FileRecords (the
// state directory's history.db and held/, the default), or LeaderRecords
// and SharedRecords over a store every process shares (package records'
// engine, over a cluster's objects in package kuberecords or a bucket's
// in package s3records). Out: Stores, the History and Approvals behind
// small interfaces (runner.History and runner.Approvals for a run), and
// the contracts.Store. OpenStores takes a file history's write lock, one
// reconcile at a time; OpenStoresReadOnly never waits for one, and reads
// the history as a running reconcile found it (Stores.HistoryFromSnapshot).
// OpenOrRepair moves a damaged history aside and starts a new one, and
// says so.
//
// The pipeline (package reconcile) opens them as one of its steps; the
// read-only commands, the web view and the runner Jobs open them the
// same way.
package envstores
