// Package runner runs one stack, as a list of steps:
//
//  1. gather the inputs: variables and the upstream contracts it reads
//     (for a plan, the contracts upstream plans would publish, when they
//     know them: Request.Preview);
//  2. skip the run when no input changed and no drift check is due (a
//     contract counts as changed when what the stack reads of it changed);
//  3. prepare the workspace;
//  4. init, with a cached workspace and the shared plugin cache;
//  5. `plan -out`, then `show -json`;
//  6. classify the cause of the change;
//  7. check the contract: the one the plan would publish against the one
//     published, and the consumer reads (Request.Readers) a removed,
//     moved or retyped key breaks; the consumers that will re-plan;
//  8. policy: evaluate the plan with Rego (input.strata.contract holds
//     the contract check), then apply it, apply the saved plan a person
//     approved, or hold it for approval — a plan that breaks a consumer is
//     held with cause contract-break;
//  9. apply exactly that plan file;
//  10. read the outputs, publish the contract and record its schema;
//  11. record the run.
//
// Each step is a small function returning a result or an error; the run's
// record and its log lines are written in one place, in Run.
package runner
