// Package report is what one reconcile did: a Report of every stack in
// graph order, each a StackReport (its result and cause, the version it
// ran, its plan's changes and the policy's word on them, what it does to
// its contract), with the stacks that will re-plan once another's plan
// is applied (AddUpstreams).
//
// In: what the runner says each stack did (Stack), what a problem held
// back (Blocked). Out: the report that strata's commands print as text
// and JSON, the daemon serves, strata controller writes to each object's
// status, and package review renders for people. It decides nothing: the
// runner did.
package report
