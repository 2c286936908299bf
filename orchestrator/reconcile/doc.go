// Package reconcile is strata's pipeline: one reconcile of one
// environment, as data flowing through a list of steps.
//
// In: a Request, the environment's directory in a checkout (or an
// environment already loaded, with its graph: what strata controller
// builds from a namespace), a plan or an apply, and Options. Out: a
// Report (package report) of what every stack did, and the records,
// state and contracts the runs wrote.
//
// Run is the list of steps, in order, each a function of its own file
// over the reconcile's state (pass), returning an error only when the
// whole reconcile stops:
//
//  1. load (load.go): the environment, rendered as Flux renders it
//     (package flux) into its model (package environment) and validated
//     as a whole, with its graph: dependencies from dependsOn and from
//     contracts, in layers, without cycles (package graph);
//  2. settle (settings.go): Options, once, against the environment's
//     settings; no step below reads Options;
//  3. openStores (stores.go): the history and held plans where
//     Options.Records keeps them, and the contract store; a damaged
//     history is moved aside and the report notes it;
//  4. claim (identity.go): the environment's identity and its stacks'
//     state keys, which no other environment of the repository may hold;
//  5. announce (announce.go): the run log's first lines, and a file of
//     each run's lines for the web view;
//  6. resolve (resolve.go): each stack's source, its version and digest
//     (package source);
//  7. findRemoved (remove.go): the stacks that left the environment;
//  8. prepareRuns (runs.go): the runner's configuration and what runs a
//     stack: tofu in this process (package runner) or, through
//     Options.Runs, strata controller's runner Jobs;
//  9. findReaders (consumers.go): who reads which keys of each contract,
//     from the consumers' code (package consumers), so that a producer's
//     plan that breaks one is held;
//  10. schedule (schedule.go): stacks in graph order with a bounded number
//     of tofu processes (package scheduler), the critical path first, the
//     bound shared with other environments' reconciles side by side
//     (Options.Runners); a plan previews each consumer against the
//     contract its producer's plan would publish, when the plan knows it;
//  11. remove (remove.go): the stacks that left are destroyed, through
//     policy, when their last good run had
//     spec.destroyResourcesOnDeletion, and orphaned (let go of, their
//     state and contract kept) otherwise;
//  12. report (report.go): what every stack did, as the runner decided it
//     (or, for a stack it did not run, why not: skipped, waiting, for an
//     upstream contract or a suspended dependency, or failed), and which
//     stacks will re-plan because of another's plan.
//
// Options.Removable limits which stacks that left the environment are
// destroyed, and Options.Deleted gives the code of those whose deleted
// object still describes it, so that their destroy is a run like any
// other.
//
// Approve records the approval of a held plan with the options' stores
// (package approve), for the CLI and the API alike, without opening the
// history. Read-only commands open the stores with
// envstores.OpenStoresReadOnly, which never waits for a running
// reconcile. Pipeline hands all of it to the drivers (package daemon and
// package controller), which name what they need of it in an interface
// of their own.
//
// The history and the held plans are records behind small interfaces
// (envstores.History and Approvals; runner.History and runner.Approvals
// for a run): Options.Records says where they are kept (package
// envstores). FileRecords, the default, keeps them in the state
// directory (history.db and held/); LeaderRecords and SharedRecords keep
// them in a store every process shares (package records' engine, over a
// cluster's objects in package kuberecords or a bucket's in package
// s3records), for the leader and for everyone else.
//
// The rooms are other packages; this one only walks through them in
// order.
package reconcile
