// Package policy decides whether a plan may be applied without a person.
//
// A plan is judged by Rego rules over the plan JSON exactly as
// `tofu show -json PLANFILE` prints it, with one added top-level key,
// strata, that says which stack, environment and cause the plan is for. The
// rules follow conftest's conventions, so a rule written for
// `conftest test plan.json` works here unchanged: deny, deny_<name>,
// violation and violation_<name> hold the plan; warn and warn_<name> are
// reported and do not block; exception exempts a whole rule by name.
//
// The default bundle (bundle/*.rego, embedded) holds every plan that deletes
// anything (deny_delete) and every IAM change outside the module prefixes
// in data.strata.iam.allowed_modules (deny_iam). Users add their own
// directories of rules and data on top, or replace the bundle.
//
// Load compiles the rules once; Engine.Eval judges one plan. The package
// fails closed: a rule that does not load, compile or evaluate is an error,
// never an allowed plan. PlanID names a plan by its content, so that an
// approval given to a held plan applies to that exact change only. Test runs
// the Rego unit tests (test_* rules) of the bundle and of user directories.
//
// No type of the underlying Rego engine crosses this package's boundary.
package policy
