// Package runner runs one stack, as a list of steps:
//
//  1. gather the inputs: variables and the upstream contracts it reads;
//  2. skip the run when no input changed and no drift check is due;
//  3. prepare the workspace;
//  4. init, with a cached workspace and the shared plugin cache;
//  5. `plan -out`, then `show -json`;
//  6. classify the cause of the change;
//  7. policy: evaluate the plan with Rego, then apply it, apply the saved
//     plan a person approved, or hold it for approval;
//  8. apply exactly that plan file;
//  9. read the outputs and publish the contract;
//  10. record the run.
//
// Each step is a small function returning a result or an error; the run's
// record and its log lines are written in one place, in Run.
package runner
