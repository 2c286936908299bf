// Package runner runs one stack, as a list of steps:
//
//  1. adopt an apply that a strata which stopped left in flight in the
//     workspace: wait for its tofu and record its outcome, never starting a
//     second apply meanwhile;
//  2. gather the inputs: variables and the upstream contracts it reads;
//  3. skip the run when no input changed, no drift check is due, the last
//     run neither failed nor was interrupted, and the state's serial and
//     lineage are those recorded after the last good apply;
//  4. prepare the workspace: the stack's code, symlinks followed inside
//     the repository only, and at least one .tf file;
//  5. init, with a cached workspace and the shared plugin cache;
//  6. `plan -out`, then `show -json`;
//  7. classify the cause of the change;
//  8. policy: evaluate the plan with Rego, then apply it, apply the saved
//     plan a person approved, or hold it for approval;
//  9. apply exactly that plan file, in a tofu that outlives strata, with
//     the shutdown grace when strata is asked to stop;
//  10. record the state's version, read the outputs and publish the
//     contract;
//  11. record the run: a run that strata stopped is interrupted.
//
// Each step is a small function returning a result or an error; the run's
// record and its log lines are written in one place, in Run.
package runner
