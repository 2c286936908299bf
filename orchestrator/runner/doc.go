// Package runner runs one stack, as lists of steps over one run state.
//
// Run first decides whether the stack runs at all:
//
//  1. adopt an apply that a strata which stopped left in flight in the
//     workspace: wait for its tofu (never starting a second apply
//     meanwhile) and record its outcome as its run's result;
//  2. a suspended stack (spec.suspend) ends there, unrecorded, with a
//     SuspendedError: its dependents wait; so does one that Flux applies
//     no change to (Stack.Frozen: its Kustomization is suspended, or the
//     object is marked reconcile: disabled or ssa: Ignore), unchanged and
//     unrecorded when it ran before (it keeps what its last good run
//     left, and its dependents go on), with a SuspendedError when it
//     never did (Flux never created it);
//  3. in the reconcile loop (Config.RetryWait), a stack whose last run
//     failed less than its spec.retryInterval ago ends there, failed and
//     unrecorded, with a RetryError;
//  4. gather the inputs: variables and the upstream contracts it reads,
//     in the Tofu Controller's order and form (var.values, vars, varsFrom;
//     a varsFrom or valueFrom of another stack's Secret takes its text
//     from the contract; see package tcdata) (a contract that does not
//     exist yet makes the stack wait; a plan reads
//     the contracts upstream plans would publish, when they know them:
//     Request.Preview);
//  5. read the last good apply, which what changed is worked out against;
//  6. check the state: a last run that failed or was interrupted, or a
//     state whose serial or lineage is not the one recorded after the last
//     good apply (changed outside strata; not looked for with
//     spec.disableDriftDetection), means the stack is planned;
//  7. skip an apply, unchanged, when no input changed and no drift check
//     is due: the stack's own spec.interval, unless the command line's
//     drift interval holds for every stack, and never with
//     spec.disableDriftDetection (a contract counts as changed when what
//     the stack reads of it changed; the Terraform fields that change how
//     tofu runs, such as spec.targets, are inputs too); never with
//     spec.force or spec.planOnly either.
//
// Then the run begins, recorded as running, and its steps run under the
// run's timeout:
//
//  8. prepare the workspace: the stack's code, with symlinks followed
//     inside the repository only, and at least one .tf file; and the
//     files of spec.fileMappings, under the workspace or a home of the
//     stack's own;
//  9. init, with a cached workspace and the shared plugin cache, then
//     select the tofu workspace of spec.workspace (created when new);
//  10. check the state lock: report a stale or held lock with its holder,
//     age and ID, and release one whose holder is provably dead when
//     spec.tfstate.forceUnlock is auto, or the one spec.tfstate.lockIdentifier
//     names when it is yes;
//  11. `plan -out` (with spec.targets and spec.parallelism; -destroy for
//     spec.destroy), then `show -json`;
//  12. classify the cause of the change;
//  13. a plan without changes ends there; an apply goes on to publish;
//  14. with spec.approvePlan: disable (drift detection only), the run ends
//     there: planned and reported, never held nor applied;
//  15. check the contract: the one the plan would publish against the one
//     published, the consumer reads (Request.Readers) that a removed,
//     moved or retyped key breaks, and the consumers that will re-plan;
//  16. review: the policy judges the plan, with the contract check as
//     input.strata.contract and the resources strata interrupted in the
//     last run as input.strata.interrupted; a plan operation, and a stack
//     with spec.planOnly, ends there;
//  17. gate: the fresh plan may be applied, or the saved plan a person
//     approved, or the plan is held for approval — with cause
//     contract-break when it breaks a consumer, and with cause
//     interrupted when it creates a resource whose create was in flight
//     when an apply died with strata and tofu (adopt reads those from
//     tofu's stream; lost.go), until a person approves;
//  18. apply exactly that plan file, in a tofu that outlives strata, with
//     the shutdown grace when strata is asked to stop (and, as the Tofu
//     Controller does, spec.targets, spec.parallelism and, for
//     spec.refreshBeforeApply, -refresh=true);
//  19. record the version of the state the apply left;
//  20. read the outputs, publish the contract and record its schema (a
//     stack with spec.destroy publishes that it is not installed).
//
// A run that strata was asked to stop during is recorded as interrupted.
//
// Remove runs the same steps for a stack that left the environment whose
// last good run had spec.destroyResourcesOnDeletion: it reopens the
// workspace its last run left, plans the destruction of everything in it,
// and once that is applied says in the stack's contract that it is no
// longer installed. RemoveDeleted (Run with Request.Removal) does the same
// for a stack whose Terraform object was deleted but still describes its
// code, as in a cluster: it lays that code out again instead of reopening
// a workspace, so that it runs anywhere, a runner pod included, against
// the state backend the stack's applies used. Orphan lets go of one without it: nothing is planned,
// its state and contract are kept, and an apply records it as orphaned.
//
// Each step is a function over the run state that adds what it finds, or
// returns why the run cannot go on. The stack's result is decided, logged
// and recorded in one place (finish.go), and the report reads it.
// Policies fail closed: a policy that could not be loaded is a
// FailingPolicy, and every plan with changes is then held.
package runner
