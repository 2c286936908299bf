// Package runner runs one stack, as lists of steps over one run state.
//
// Run first decides whether the stack runs at all:
//
//  1. gather the inputs: variables and the upstream contracts it reads (a
//     contract that does not exist yet makes the stack wait; a plan reads
//     the contracts upstream plans would publish, when they know them:
//     Request.Preview);
//  2. read the last good apply, which what changed is worked out against;
//  3. skip an apply, unchanged, when no input changed and no drift check
//     is due (a contract counts as changed when what the stack reads of
//     it changed).
//
// Then the run begins, recorded as running, and its steps run under the
// run's timeout:
//
//  4. prepare the workspace;
//  5. init, with a cached workspace and the shared plugin cache;
//  6. `plan -out`, then `show -json`;
//  7. classify the cause of the change;
//  8. a plan without changes ends there; an apply goes on to publish;
//  9. check the contract: the one the plan would publish against the one
//     published, the consumer reads (Request.Readers) that a removed,
//     moved or retyped key breaks, and the consumers that will re-plan;
//  10. review: the policy judges the plan, with the contract check as
//     input.strata.contract; a plan operation ends there;
//  11. gate: the fresh plan may be applied, or the saved plan a person
//     approved, or the plan is held for approval — with cause
//     contract-break when it breaks a consumer;
//  12. apply exactly that plan file;
//  13. read the outputs, publish the contract and record its schema.
//
// Remove runs the same steps for a stack that left the environment: it
// reopens the workspace its last run left, plans the destruction of
// everything in it, and once that is applied says in the stack's contract
// that it is no longer installed.
//
// Each step is a function over the run state that adds what it finds, or
// returns why the run cannot go on. The stack's result is decided, logged
// and recorded in one place (finish.go), and the report reads it.
// Policies fail closed: a policy that could not be loaded is a
// FailingPolicy, and every plan with changes is then held.
package runner
