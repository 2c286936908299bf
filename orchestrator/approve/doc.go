// Package approve records a person's approval of one held plan: the
// check behind strata approve, the daemon's approval API, the web view's
// form and a Terraform object's spec.approvePlan.
//
// In: an environment (its directory, loaded and validated here, or one
// already loaded), an approval.Request (stack, plan id, reason, who) and
// Stores, where the environment keeps its held plans. Out: the
// approval.Approval recorded, which the next apply applies when a fresh
// plan still has its id; or an error a caller branches on:
// approval.ErrBadApproval, approval.ErrUnknownStack,
// approval.ErrNoHeldPlan (its message lists the stack's held plans), or
// the environment's diag.Problems. It opens neither the history nor the
// contract store, so it works while a reconcile runs.
package approve
