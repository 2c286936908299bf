// Package review renders a reconcile's report as the plan review people
// read: the Markdown that `strata plan -o markdown` prints for a pull
// request, and that the web view shows on a stack's page. Both use this
// one renderer, so the two never disagree.
package review
