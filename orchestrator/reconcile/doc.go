// Package reconcile is strata's pipeline: one reconcile of one
// environment, as data flowing through a list of steps.
//
//  1. load: the environment, rendered as Flux renders it (package flux)
//     into a typed model (package environment) and validated as a whole,
//     with its settings (environment.Settings, flags applied through
//     Options) and an identity no other environment
//     of the repository shares; then its stores are opened and it claims
//     its identity and its stacks' state keys in the history;
//  2. graph: dependencies from dependsOn and from contracts, in layers,
//     without cycles (package graph);
//  3. resolve: each stack's source, its version and digest (package
//     source);
//  4. consumers: who reads which keys of each contract, from the
//     consumers' code (package consumers), so that a producer's plan that
//     breaks one is held;
//  5. schedule: stacks in graph order with a bounded number of tofu
//     processes (package scheduler), the critical path first, the bound
//     shared with other environments' reconciles side by side
//     (Options.Runners), each stack run by package runner; a plan
//     previews each consumer against the contract its producer's plan
//     would publish, when the plan knows it;
//  6. remove: the stacks that left the repository are destroyed, through
//     policy, when their last good run had spec.destroyResourcesOnDeletion,
//     and orphaned (let go of, their state and contract kept) otherwise;
//  7. report: what every stack did, as the runner decided it (or, for a
//     stack it did not run, why not: skipped, waiting, for an upstream
//     contract or a suspended dependency, or failed), and which stacks
//     will re-plan because of another's plan.
//
// ReconcileEnvironment runs the same steps from step 2 on an environment
// already loaded: what strata controller builds from a namespace.
// Options.Runs hands each stack's run to something other than an
// in-process runner (the controller's executor), Options.Removable
// limits which stacks that left the environment are destroyed, and
// Options.Deleted gives the code of those whose deleted object still
// describes it, so that their destroy is a run like any other.
//
// Approve records the approval of a held plan, for the CLI and the API
// alike, without opening the history. Read-only commands open the stores
// with OpenStoresReadOnly, which never waits for a running reconcile.
//
// The history and the held plans are records behind small interfaces
// (History, Approvals; runner.History and runner.Approvals for a run):
// Options.Records says where they are kept. FileRecords, the default,
// keeps them in the state directory (history.db and held/);
// LeaderRecords and SharedRecords keep them in a store every process
// shares (package records' engine, over a cluster's objects in package
// kuberecords or a bucket's in package s3records), for the leader and
// for everyone else.
//
// Its subpackages are the parts; this package only wires them in order.
package reconcile
