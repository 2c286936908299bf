// Package approval keeps held plans and the approvals people give them.
//
// A plan that policy denies is held: its plan file, its JSON and a readable
// summary are kept under the state directory, named by the plan's id (a
// hash of its resource changes). `strata approve` records an approval for
// one exact plan id, with who approved it, when and why, in strata's own
// store and never in the Git repository. The next run applies the saved
// plan only if a fresh plan has the same id.
package approval
